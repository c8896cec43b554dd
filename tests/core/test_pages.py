import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_home_is_hungarian_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="hu">' in html
    assert "Naptár" in html and "Bejelentkezés" in html


@pytest.mark.django_db
def test_english_switch(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert '<html lang="en">' in html and "Calendar" in html and "Log in" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/api/schema/",
        "/api/docs/",
        "/admin/login/",
        "/accounts/login/",
        "/accounts/register/",
        "/clubs/",
        "/api/v1/",
        "/api/v1/clubs/",
    ],
)
def test_public_pages_answer(client, url):
    assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_profile_needs_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302 and reverse("login") in response.url


@pytest.mark.django_db
def test_the_schema_is_valid_openapi(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/clubs/" in schema["paths"]


@pytest.mark.django_db
def test_static_css_comes_from_the_package(client):
    html = client.get("/").content.decode()
    assert "/static/bootstrap/css/bootstrap.min.css" in html
    assert "cdn" not in html.lower()


@pytest.mark.django_db
def test_an_english_browser_still_gets_hungarian_until_it_switches(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="hu">' in html and "Naptár" in html


@pytest.mark.django_db
def test_error_pages_are_the_portals_own_in_hungarian(client, make_user):
    missing = client.get("/nincs-ilyen-oldal/")
    assert missing.status_code == 404
    html = missing.content.decode()
    assert (
        "Az oldal nem található" in html and "Naptár" in html
    )  # the portal's layout, not Django's bare page
    client.force_login(make_user("jatekos@example.hu"))
    denied = client.get(reverse("audit_log"))
    assert denied.status_code == 403
    html = denied.content.decode()
    assert "Hozzáférés megtagadva" in html and "Vissza a kezdőlapra" in html
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Access denied" in client.get(reverse("audit_log")).content.decode()


def test_server_error_page_needs_no_database_and_speaks_hungarian():
    from django.template import loader

    html = loader.get_template("500.html").render({})
    assert "Váratlan hiba történt" in html and 'lang="hu"' in html
