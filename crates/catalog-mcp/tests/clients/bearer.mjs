// Preloaded (`node --import`) into the MCP conformance suite, which has no option for
// credentials: every HTTP request the suite makes, through fetch or undici, carries
// `Authorization: Bearer $CONFORMANCE_BEARER`, as a client of the servers here must.
// Nothing else about the requests changes, so the suite's own Host and Origin headers
// reach the server as it sent them. `undici` is the suite's own copy, found from
// `$CONFORMANCE_PACKAGE` (the suite's package.json); setting its global dispatcher also
// sets Node's fetch's.
import { createRequire } from 'node:module';

const token = process.env.CONFORMANCE_BEARER;
if (!token) throw new Error('CONFORMANCE_BEARER is not set');
const require = createRequire(process.env.CONFORMANCE_PACKAGE);
const { Agent, setGlobalDispatcher } = require('undici');

// A request's headers, in any of the forms undici takes, as one flat [name, value, ...] list.
const flat = (headers) => {
  if (!headers) return [];
  if (Array.isArray(headers)) return headers;
  const pairs = typeof headers[Symbol.iterator] === 'function' ? [...headers] : Object.entries(headers);
  return pairs.flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((v) => [name, v]),
  );
};

const withBearer = (dispatch) => (options, handler) =>
  dispatch({ ...options, headers: [...flat(options.headers), 'authorization', `Bearer ${token}`] }, handler);

setGlobalDispatcher(new Agent().compose(withBearer));

// The scenarios that send raw requests through `node:http` (to keep header names and
// values exactly as written) carry the token too.
import http from 'node:http';

const request = http.request;
http.request = function (...args) {
  const options = args.find((a) => a && typeof a === 'object' && !(a instanceof URL));
  if (options) {
    options.headers = { ...(options.headers ?? {}), authorization: `Bearer ${token}` };
  }
  return request.apply(this, args);
};
