"""The versioned API router; every app registers its viewsets here."""

from rest_framework.routers import DefaultRouter

from federation import api as federation_api

router = DefaultRouter()
router.register("federations", federation_api.FederationViewSet)
router.register("regions", federation_api.RegionViewSet)
router.register("clubs", federation_api.ClubViewSet)
router.register("people", federation_api.PersonViewSet)
