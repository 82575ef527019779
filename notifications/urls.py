from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("status.json", views.status, name="status"),
    path("settings", views.settings_page, name="settings"),
    path("unsubscribe/<str:token>", views.unsubscribe, name="unsubscribe"),
    path("push/subscribe", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe", views.push_unsubscribe, name="push_unsubscribe"),
]
