"""A small LTI 1.3 platform (an LMS, as far as the tool can tell) on 127.0.0.1, for the tests.

It has its own RSA key pair and serves, over real HTTP:
- ``/jwks``: its public key set, which the tool fetches to check id_tokens;
- ``/auth``: the OIDC authorization endpoint; it answers the tool's redirect with a signed id_token in a form
  that posts itself to the tool's launch URL (as an LMS does);
- ``/token``: client_credentials access tokens, granted only to a client assertion signed by a key in the tool's
  published key set;
- ``/lineitems/<id>/scores``: AGS score posts (bearer token required), recorded in order of arrival;
- ``/memberships``: the NRPS roster;
- ``/deep-link-return``: the tool's deep linking response; each content item becomes a resource link with a line
  item, which later launches carry.

Everything it receives is recorded on the object. ``login_url`` starts a launch the way an LMS does (a
third-party initiated login); ``id_token`` makes a token directly, for HTTP-level tests of refusals.
"""

from __future__ import annotations

import html
import json
import secrets
import threading
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
TA = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"


def new_rsa_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@dataclass
class Person:
    sub: str
    given_name: str
    family_name: str
    roles: list[str]
    email: str = ""

    def claims(self) -> dict:
        return {
            "sub": self.sub,
            "given_name": self.given_name,
            "family_name": self.family_name,
            "name": f"{self.given_name} {self.family_name}",
            "email": self.email,
            CLAIM + "roles": self.roles,
        }


@dataclass
class ResourceLink:
    id: str
    title: str
    custom: dict
    lineitem: str


@dataclass
class Recorded:
    scores: list[dict] = field(default_factory=list)  # each score body, plus "lineitem" and "token"
    tokens: list[dict] = field(default_factory=list)
    memberships: int = 0
    deep_links: list[dict] = field(default_factory=list)


class LtiPlatform:
    client_id = "judge-tool-client"
    deployment_id = "deployment-1"
    context = {"id": "lms-course-101", "label": "NT101", "title": "Transformers in NumPy (LMS)"}

    def __init__(self, tool_base: str) -> None:
        """``tool_base``: the tool's address as the browser reaches it, e.g. http://127.0.0.1:8000."""
        self.tool_base = tool_base.rstrip("/")
        self.issuer_suffix = ""  # "/": the issuer as a platform whose address ends in a slash sends it
        self.key = new_rsa_key()
        self.kid = "platform-key-1"
        self.people: dict[str, Person] = {}
        self.links: dict[str, ResourceLink] = {}
        self.pending_messages: dict[str, dict] = {}  # lti_message_hint -> what to launch
        self.recorded = Recorded()
        self.fail_scores = 0  # answer this many score posts with 503 first
        self.lock = threading.Lock()
        self.access_tokens: set[str] = set()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        # Shutting down waits for the server's next look at its flag: every half second by default, half a
        # second at the end of each of the LTI tests.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self.thread.start()

    # --- addresses -------------------------------------------------------------------------------------------
    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def issuer(self) -> str:
        return self.origin + self.issuer_suffix

    @property
    def secure(self) -> bool:
        """Whether the browser reaches the tool over HTTPS."""
        return self.tool_base.startswith("https://")

    def url(self, path: str) -> str:
        return self.origin + path

    def registration(self) -> dict:
        """The fields an administrator types into the tool's platform form."""
        return {
            "name": "Test LMS",
            "issuer": self.issuer,
            "client_id": self.client_id,
            "deployment_ids_text": self.deployment_id,
            "key_set_url": self.url("/jwks"),
            "auth_login_url": self.url("/auth"),
            "auth_token_url": self.url("/token"),
            "auth_audience": "",
            "enabled": "on",
        }

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # --- people and links ------------------------------------------------------------------------------------
    def person(self, sub: str, given: str, family: str, roles: list[str]) -> Person:
        self.people[sub] = Person(sub, given, family, roles, f"{given.lower()}@lms.example.edu")
        return self.people[sub]

    def add_link(self, title: str, custom: dict, score_maximum: float) -> ResourceLink:
        number = len(self.links) + 1
        link = ResourceLink(f"resource-link-{number}", title, custom, self.url(f"/lineitems/{number}"))
        self.links[link.id] = link
        return link

    # --- launches --------------------------------------------------------------------------------------------
    def login_url(
        self, person: Person, link: ResourceLink | None = None, deep_linking: bool = False, **overrides
    ) -> str:
        """Where the LMS sends the browser first: the tool's login initiation, with a hint of what to launch."""
        hint = uuid.uuid4().hex
        self.pending_messages[hint] = {
            "sub": person.sub,
            "link": link.id if link else None,
            "deep_linking": deep_linking,
            "overrides": overrides,
        }
        query = {
            "iss": self.issuer,
            "login_hint": person.sub,
            "lti_message_hint": hint,
            "target_link_uri": self.tool_base + "/lti/launch/",
            "client_id": self.client_id,
            "lti_deployment_id": self.deployment_id,
        }
        return self.tool_base + "/lti/login/?" + urlencode(query)

    def launch_claims(
        self, person: Person, nonce: str, link: ResourceLink | None = None, deep_linking: bool = False
    ) -> dict:
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "aud": self.client_id,
            "azp": self.client_id,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            **person.claims(),
            CLAIM + "deployment_id": self.deployment_id,
            CLAIM + "version": "1.3.0",
            CLAIM + "context": self.context,
            CLAIM + "target_link_uri": self.tool_base + "/lti/launch/",
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": self.url("/memberships"),
                "service_versions": ["2.0"],
            },
        }
        ags = {
            "scope": [
                "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                "https://purl.imsglobal.org/spec/lti-ags/scope/score",
            ],
            "lineitems": self.url("/lineitems"),
        }
        if deep_linking:
            claims[CLAIM + "message_type"] = "LtiDeepLinkingRequest"
            claims["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = {
                "deep_link_return_url": self.url("/deep-link-return"),
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe", "window"],
                "accept_multiple": False,
                "data": "opaque-platform-data",
            }
        else:
            claims[CLAIM + "message_type"] = "LtiResourceLinkRequest"
            resource = link or ResourceLink("course-navigation", "Course", {}, "")
            claims[CLAIM + "resource_link"] = {"id": resource.id, "title": resource.title}
            claims[CLAIM + "custom"] = resource.custom
            if resource.lineitem:
                ags["lineitem"] = resource.lineitem
        claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = ags
        return claims

    def sign(self, claims: dict, key=None, kid: str | None = None) -> str:
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": kid or self.kid})

    def id_token(
        self,
        person: Person,
        nonce: str,
        link: ResourceLink | None = None,
        deep_linking: bool = False,
        key=None,
        **changes,
    ) -> str:
        claims = self.launch_claims(person, nonce, link, deep_linking)
        claims.update(changes)
        return self.sign(claims, key)

    # --- the tool's side, as the platform checks it ------------------------------------------------------------
    def tool_keys(self) -> dict:
        with urllib.request.urlopen(self.tool_base + "/lti/jwks/", timeout=10) as answer:
            return json.load(answer)

    def verify_from_tool(self, token: str, audience: str) -> dict:
        kid = jwt.get_unverified_header(token).get("kid")
        for key in self.tool_keys()["keys"]:
            if key.get("kid") == kid:
                return jwt.decode(token, jwt.PyJWK(key).key, algorithms=["RS256"], audience=audience)
        raise jwt.InvalidTokenError(f"kid {kid} is not in the tool's key set")

    def handler(self):
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def reply(self, status: int, body: str | dict, kind: str = "application/json") -> None:
                data = (json.dumps(body) if isinstance(body, dict) else body).encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def form(self) -> dict:
                length = int(self.headers.get("Content-Length") or 0)
                return {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}

            def authorised(self) -> bool:
                token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
                return token in platform.access_tokens

            def do_GET(self) -> None:
                path, query = urlsplit(self.path).path, parse_qs(urlsplit(self.path).query)
                if path == "/jwks":
                    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(platform.key.public_key()))
                    return self.reply(200, {"keys": [{**public, "kid": platform.kid, "alg": "RS256", "use": "sig"}]})
                if path == "/auth":
                    return self.authorize({k: v[0] for k, v in query.items()})
                if path == "/memberships":
                    if not self.authorised():
                        return self.reply(401, {"error": "no token"})
                    platform.recorded.memberships += 1
                    members = [
                        {
                            "user_id": p.sub,
                            "roles": p.roles,
                            "status": "Active",
                            "given_name": p.given_name,
                            "family_name": p.family_name,
                            "name": f"{p.given_name} {p.family_name}",
                            "email": p.email,
                        }
                        for p in platform.people.values()
                    ]
                    return self.reply(
                        200,
                        {"id": self.path, "context": platform.context, "members": members},
                        "application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
                    )
                return self.reply(404, {"error": "no such path"})

            def authorize(self, query: dict) -> None:
                message = platform.pending_messages.get(query.get("lti_message_hint", ""))
                if (
                    message is None
                    or query.get("client_id") != platform.client_id
                    or query.get("login_hint") != message["sub"]
                ):
                    return self.reply(400, "unknown login", "text/plain")
                overrides = message["overrides"]
                link = platform.links.get(message["link"]) if message["link"] else None
                claims = platform.launch_claims(
                    platform.people[message["sub"]], query["nonce"], link, message["deep_linking"]
                )
                claims.update(overrides.get("claims", {}))
                token = platform.sign(claims, overrides.get("key"))
                state = overrides.get("state", query["state"])
                page = (
                    f'<!doctype html><title>LMS</title><form id="launch" method="post" '
                    f'action="{html.escape(query["redirect_uri"])}">'
                    f'<input type="hidden" name="id_token" value="{token}">'
                    f'<input type="hidden" name="state" value="{html.escape(state)}"></form>'
                    '<script>document.getElementById("launch").submit()</script>'
                )
                self.reply(200, page, "text/html")

            def do_POST(self) -> None:
                path = urlsplit(self.path).path
                if path == "/token":
                    return self.token(self.form())
                if path.startswith("/lineitems/") and path.endswith("/scores"):
                    return self.score(path.removesuffix("/scores"))
                if path == "/deep-link-return":
                    return self.deep_link_return(self.form())
                return self.reply(404, {"error": "no such path"})

            def token(self, form: dict) -> None:
                try:
                    claims = platform.verify_from_tool(form.get("client_assertion", ""), platform.url("/token"))
                except jwt.InvalidTokenError as error:
                    return self.reply(401, {"error": "invalid_client", "error_description": str(error)})
                if claims.get("sub") != platform.client_id:
                    return self.reply(401, {"error": "invalid_client"})
                access = secrets.token_urlsafe(16)
                with platform.lock:
                    platform.access_tokens.add(access)
                    platform.recorded.tokens.append({"scope": form.get("scope", "")})
                self.reply(200, {"access_token": access, "token_type": "Bearer", "expires_in": 3600})

            def score(self, lineitem_path: str) -> None:
                if not self.authorised():
                    return self.reply(401, {"error": "no token"})
                if self.headers.get("Content-Type") != "application/vnd.ims.lis.v1.score+json":
                    return self.reply(415, {"error": "score content type expected"})
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length))
                with platform.lock:
                    if platform.fail_scores > 0:
                        platform.fail_scores -= 1
                        return self.reply(503, {"error": "the gradebook is down for maintenance"})
                    platform.recorded.scores.append({**body, "lineitem": platform.url(lineitem_path)})
                self.reply(200, {})

            def deep_link_return(self, form: dict) -> None:
                try:
                    claims = platform.verify_from_tool(form.get("JWT", ""), platform.issuer)
                except jwt.InvalidTokenError as error:
                    return self.reply(400, f"bad deep linking response: {error}", "text/plain")
                items = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
                platform.recorded.deep_links.append(claims)
                for item in items:
                    platform.add_link(item["title"], item.get("custom", {}), item["lineItem"]["scoreMaximum"])
                titles = ", ".join(html.escape(item["title"]) for item in items)
                self.reply(200, f"<!doctype html><title>LMS</title><h1 id='added'>Added: {titles}</h1>", "text/html")

        return Handler

    # --- reading what arrived --------------------------------------------------------------------------------
    def scores_for(self, sub: str) -> list[dict]:
        with self.lock:
            return [s for s in self.recorded.scores if s["userId"] == sub]
