/** True for a URL host name that always means this machine: `localhost`, 127.0.0.0/8, `::1`, `0.0.0.0` (and `::`). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1' || host === '::' || host === '0.0.0.0') return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (octets !== null) return octets.slice(1).every((octet) => Number(octet) <= 255) && octets[1] === '127';
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1; the URL parser writes it ::ffff:7f00:1).
  const mapped = /^::ffff:(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/.exec(host);
  return mapped !== null;
}

/**
 * True when `url` may be reached: its host is loopback, or is named in `allowHosts` (a host name, or `host:port` for
 * that port alone; compared without case). A URL that does not parse is never allowed.
 */
export function isUrlHostAllowed(url: string, allowHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (isLoopbackHost(parsed.hostname)) return true;
  const host = parsed.hostname.toLowerCase();
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? '443' : '80') : parsed.port;
  return allowHosts.some((allowed) => {
    const entry = allowed.toLowerCase();
    return entry === host || entry === `${host}:${port}`;
  });
}
