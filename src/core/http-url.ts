// The one test of an http(s) URL given by a user (a server, a callback, a reset hook): a scheme, a
// host, and a form WHATWG's URL parser accepts (a port past 65535, say, is no URL).

export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !/^https?:\/\/[^/]/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
