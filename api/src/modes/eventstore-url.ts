/**
 * An EVENTSTORE_URL read the way the KurrentDB client reads it
 * (node_modules/@kurrent/kurrentdb-client/dist/Client/parseConnectionString.js), so the mode rules
 * judge the connection Quern will actually make: the string trimmed and its trailing slashes
 * dropped, every host of a comma list, option names without case, `-` or `_`, values trimmed,
 * the last of a repeated option winning. Bracketed IPv6 hosts, which the client cannot read, are
 * read too, so a rule never throws on them.
 */

export interface EventStoreConnection {
  /** `+discover`: the nodes reached are the ones the cluster's gossip names, not these hosts. */
  discover: boolean;
  /** The host of each `host[:port]`, brackets removed. */
  hosts: string[];
  /** Each option under its flattened name (`tlsverifycert`), its value trimmed. */
  options: Map<string, string>;
}

const CLIENT_HOST = /^([^$+!?*'(),;[\]{}|"%~#<>=&]+)[,/]?/;
const BRACKETED_HOST = /^\s*\[([^\]]*)\](?::[^,/?]*)?[,/]?/;

const flatName = (name: string) => name.trim().toLowerCase().replace(/[_-]/g, '');

/** The connection `url` names, or undefined when the client could not read it either. */
export function readEventStoreUrl(url: string): EventStoreConnection | undefined {
  const text = url.trim().replace(/\/+$/, '');
  const scheme = /^([^:]+):\/\//.exec(text);
  if (!scheme?.[1]) return undefined;
  let rest = text.slice(scheme[0].length);
  const credentials = /^[^:]+:[^@]+@/.exec(rest);
  if (credentials) rest = rest.slice(credentials[0].length);

  const hosts: string[] = [];
  for (;;) {
    const bracketed = BRACKETED_HOST.exec(rest);
    const plain = bracketed ? undefined : CLIENT_HOST.exec(rest);
    const host = bracketed?.[1] ?? plain?.[1]?.trim().split(':')[0];
    if (host === undefined) break;
    hosts.push(host.trim());
    rest = rest.slice((bracketed ?? plain)?.[0].length ?? rest.length);
  }
  if (hosts.length === 0) return undefined;

  const options = new Map<string, string>();
  for (let first = true; rest.length > 0; first = false) {
    const option = new RegExp(`^[${first ? '?' : '&'}]([^=]+)=([^&?]+)`).exec(rest);
    if (!option?.[1] || !option[2]) return undefined;
    options.set(flatName(option[1]), option[2].trim());
    rest = rest.slice(option[0].length);
  }
  return { discover: scheme[1].endsWith('+discover'), hosts, options };
}
