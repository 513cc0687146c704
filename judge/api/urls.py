from django.urls import path, re_path

from judge.api.api import api
from judge.api.errors import problem_response


def no_such_endpoint(request, rest: str = ""):
    """An address under /api/ that names no endpoint: problem details too, never the site's HTML 404 page."""
    return problem_response(
        404, f"no API endpoint at {request.path}; the endpoints are listed in /api/v1/openapi.json and on /api/v1/docs"
    )


urlpatterns = [path("v1/", api.urls), re_path(r"^(?P<rest>.*)$", no_such_endpoint)]
