from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("@/<str:username>", views.profile, name="user"),
    path("@/<str:username>/games", views.games, name="games"),
    path("profile", views.my_profile, name="profile"),
]
