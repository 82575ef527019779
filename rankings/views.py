"""The rankings page: thin, over `rankings.tabs` (which tabs, each one's panel) and
`rankings.boards` (the rating boards)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import reverse

from .tabs import all_tabs


def index(request: HttpRequest) -> HttpResponse:
    if "type" in request.GET:  # the game's old name in this page's address (issue #44)
        query = request.GET.copy()
        query.setlist("game", query.getlist("game") or query.getlist("type"))
        del query["type"]
        return HttpResponsePermanentRedirect(f"{reverse('rankings:index')}?{query.urlencode()}")
    tabs = all_tabs()
    key = request.GET.get("tab") or tabs[0].key
    selected = next((t for t in tabs if t.key == key), None)
    if selected is None:
        raise Http404(f"no rankings tab {key!r}")
    url = reverse("rankings:index")
    context = {
        "tabs": [{"key": t.key, "label": t.label, "url": f"{url}?tab={t.key}",
                  "selected": t is selected} for t in tabs],
        "tab": selected,
        "panel_template": selected.template,
        **selected.context(request),
    }
    return render(request, "rankings/index.html", context)
