"""The versioned API router; every app registers its viewsets here."""

from rest_framework.routers import DefaultRouter

from appeals import api as appeals_api
from bridge import api as bridge_api
from federation import api as federation_api
from rankings import api as rankings_api
from teams import api as teams_api
from tournaments import api as tournaments_api
from ulti import api as ulti_api

router = DefaultRouter()
router.register("federations", federation_api.FederationViewSet)
router.register("regions", federation_api.RegionViewSet)
router.register("clubs", federation_api.ClubViewSet)
router.register("people", federation_api.PersonViewSet)

tournaments_api.register(router)
bridge_api.register(router)
ulti_api.register(router)
rankings_api.register(router)
teams_api.register(router)
appeals_api.register(router)
