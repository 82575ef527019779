"""The OAuth 2 endpoints a third-party app sends a member's browser and its own requests
to, under /oauth/ (django-oauth-toolkit's views): `authorize/`, the consent page, in the
site's own template; `token/`, a code and its PKCE verifier for a token; `revoke_token/`
(RFC 7009). The consent page's Content-Security-Policy lets its form's answer go on to
the app's registered redirect URI (a browser checks `form-action` on the redirect that
follows the form, so `'self'` alone would stop the member at the site).

The authorization server's metadata (RFC 8414) is the toolkit's document at the site's
root, `/.well-known/oauth-authorization-server` (`metadata_route`): the issuer (the
site's origin, the `iss` the authorization response carries, RFC 9207), the three
endpoints, what the site accepts (the code grant and refresh, S256 only, public clients
authenticating with nothing), its scopes, and the API's reference page."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, path, reverse
from oauth2_provider import views as toolkit

from .scopes import ALL


def origin_of(uri: str) -> str | None:
    """A redirect URI's origin as a CSP source (`https://app.example:8443`), or None."""
    parts = urlsplit(uri)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"


class ConsentView(toolkit.AuthorizationView):
    """The toolkit's authorization endpoint: a member signed in (else the sign-in page,
    then back here) is asked whether the app may act for them with these scopes."""

    template_name = "api/authorize.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        asked = context.get("scopes") or []
        context["asked_scopes"] = [scope for scope in ALL if scope.value in asked]
        uri = str(context.get("redirect_uri") or "")
        context["redirect_host"] = urlsplit(uri).netloc or uri
        return context

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        response = super().render_to_response(context, **kwargs)
        origin = origin_of(str(context.get("redirect_uri") or ""))
        if origin:
            response._csp_update = {"form-action": [origin]}
        return response


def routes() -> list[Any]:
    """The routes under /oauth/ (the toolkit's names, in its `oauth2_provider` namespace)."""
    return [
        path("authorize/", ConsentView.as_view(), name="authorize"),
        path("token/", toolkit.TokenView.as_view(), name="token"),
        path("revoke_token/", toolkit.RevokeTokenView.as_view(), name="revoke-token"),
    ]



class MetadataView(toolkit.OAuthServerMetadataView):
    """The toolkit's RFC 8414 document, with the `service_documentation` the RFC names:
    the API's reference page."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        response = super().get(request, *args, **kwargs)
        document = json.loads(response.content)
        document["service_documentation"] = request.build_absolute_uri(
            reverse("api-reference"))
        answer = JsonResponse(document)
        answer["Access-Control-Allow-Origin"] = "*"  # read by apps from any origin
        return answer


def metadata_route() -> URLPattern:
    """RFC 8414's place for it: the origin's root, not under /oauth/."""
    return path(".well-known/oauth-authorization-server", MetadataView.as_view(),
                name="oauth-server-metadata")
