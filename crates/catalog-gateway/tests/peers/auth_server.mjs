// An OAuth 2.1 authorization server for the gateway's tests: `oauth2-mock-server` (npm)
// on loopback, with what the tests need to drive it.
//
// `node auth_server.mjs NODE_MODULES SECRET` imports oauth2-mock-server from the folder
// NODE_MODULES, starts its issuer on 127.0.0.1 at a port the system picks, and prints one
// line, `issuer URL`, once it listens. SECRET is the client secret the gateway must present
// at the introspection endpoint (client `catalog-gateway`).
//
// The mock's own endpoints serve as they are: its metadata (OpenID Connect discovery only,
// so the gateway's RFC 8414 lookup falls back), its keys (`/jwks`), its token endpoint (the
// client-credentials grant the Python SDK uses; a hook sets `aud` from the RFC 8707
// `resource` parameter and `sub` from the client, as an authorization server that supports
// resource indicators does) and its introspection endpoint (a hook answers from the opaque
// tokens issued here, after checking the gateway's credentials). Besides, for the tests:
//
// - `POST /test/token {claims, header, expires_in, kid}`: a JWT with those claims (over the
//   mock's `iss`, `iat`, `exp`, `nbf`) and header fields, signed with the current key (or
//   `kid`): `{token}`;
// - `POST /test/rotate`: a new signing key, added to the key set and used from now on:
//   `{kid}`;
// - `POST /test/opaque {claims}`: an opaque token whose introspection answers
//   `{active: true, ...claims}`: `{token}`;
// - `GET /test/stats`: how often the keys and the introspection endpoint were asked.

import http from "node:http";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";

const [modules, secret] = process.argv.slice(2);
const mock = await import(
  pathToFileURL(path.join(modules, "oauth2-mock-server", "dist", "index.mjs")).href
);

const issuer = new mock.OAuth2Issuer();
let current = (await issuer.keys.generate("RS256")).kid;
const service = new mock.OAuth2Service(issuer);
const opaque = new Map();
const stats = { jwks: 0, introspect: 0 };

function basic(req) {
  const header = req.headers.authorization ?? "";
  if (!header.startsWith("Basic ")) return undefined;
  const [id, ...rest] = Buffer.from(header.slice(6), "base64").toString().split(":");
  return { id: decodeURIComponent(id), secret: decodeURIComponent(rest.join(":")) };
}

service.on("beforeTokenSigning", (token, req) => {
  if (req.body?.grant_type !== "client_credentials") return;
  const client = basic(req)?.id ?? req.body.client_id;
  token.payload.sub = client;
  token.payload.client_id = client;
  if (req.body.resource !== undefined) token.payload.aud = req.body.resource;
});

service.on("beforeIntrospect", (response, req) => {
  const client = basic(req);
  if (client?.id !== "catalog-gateway" || client.secret !== secret) {
    response.statusCode = 401;
    response.body = { error: "invalid_client" };
    return;
  }
  const claims = opaque.get(req.introspected?.get("token"));
  response.body = claims === undefined ? { active: false } : { active: true, ...claims };
});

async function body(req) {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

function json(res, value, status = 200) {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, issuer.url);
    if (url.pathname === "/jwks") stats.jwks += 1;
    if (url.pathname === "/introspect" && req.method === "POST") {
      stats.introspect += 1;
      // The mock's handler answers synchronously from its hook: the form is read first.
      req.introspected = new URLSearchParams(await body(req));
    }
    if (url.pathname === "/test/token") {
      const asked = JSON.parse(await body(req));
      const token = await issuer.buildToken({
        kid: asked.kid ?? current,
        expiresIn: asked.expires_in,
        scopesOrTransform: (header, payload) => {
          Object.assign(payload, asked.claims);
          Object.assign(header, asked.header);
        },
      });
      return json(res, { token });
    }
    if (url.pathname === "/test/rotate") {
      current = (await issuer.keys.generate("RS256")).kid;
      return json(res, { kid: current });
    }
    if (url.pathname === "/test/opaque") {
      const asked = JSON.parse(await body(req));
      const token = randomBytes(24).toString("hex");
      opaque.set(token, asked.claims);
      return json(res, { token });
    }
    if (url.pathname === "/test/stats") return json(res, stats);
    service.requestHandler(req, res);
  } catch (error) {
    json(res, { error: String(error) }, 500);
  }
});

server.listen(0, "127.0.0.1", () => {
  issuer.url = `http://127.0.0.1:${server.address().port}`;
  console.log(`issuer ${issuer.url}`);
});
