// Which addresses a feed fetch may connect to. A feed URL is typed by an admin and its redirects
// are chosen by a stranger's server, so without this a fetch could read the cloud metadata service
// or anything else on the private network (SSRF). Names are resolved once, every address checked,
// and the connection made to the checked address only, so a second DNS answer cannot swap it.
import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { parseFetchAllowEntry } from '#core/config';
import { FeedError } from './errors';

/** Loopback, unspecified, private, shared (CGNAT), link-local (cloud metadata), multicast, reserved. */
const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** Unspecified, loopback, unique-local (incl. AWS's fd00:ec2::254), link-local, site-local, multicast. */
const BLOCKED_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const blocked = new BlockList();
for (const [network, prefix] of BLOCKED_V4) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of BLOCKED_V6) blocked.addSubnet(network, prefix, 'ipv6');

/**
 * The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d,
 * NAT64 64:ff9b::a.b.c.d), which is where a connection to it actually ends up.
 */
function embeddedIPv4(address: string): string | undefined {
  const match =
    /^(?:::ffff:|::|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([\da-f]{1,4}):([\da-f]{1,4}))$/i.exec(
      address,
    );
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** True for any address a public feed has no business resolving to. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIPv4(address);
  if (v4 && address !== '::' && address !== '::1') return blocked.check(v4, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/**
 * The operator's exceptions (FEED_FETCH_ALLOW): host names, addresses and CIDR ranges on any port,
 * or host:port origins on that port only (core/config's parseFetchAllowEntry).
 */
export type AllowList = readonly string[];

type CompiledAllowList = {
  /** Host names, as `name` (any port) or `name:port`. */
  hosts: Set<string>;
  /** Addresses and ranges allowed on any port. */
  addresses: BlockList;
  /** Addresses allowed on one port only, by port. */
  addressesByPort: Map<number, BlockList>;
};

const compiled = new WeakMap<AllowList, CompiledAllowList>();

function compile(allow: AllowList): CompiledAllowList {
  const cached = compiled.get(allow);
  if (cached) return cached;
  const result: CompiledAllowList = {
    hosts: new Set(),
    addresses: new BlockList(),
    addressesByPort: new Map(),
  };
  for (const text of allow) {
    const entry = parseFetchAllowEntry(text.trim().toLowerCase());
    if (!entry) throw new Error(`Not a feed fetch exception: ${text}`);
    const { host, family, prefix, port } = entry;
    if (family === 0) {
      result.hosts.add(port === undefined ? host : `${host}:${port}`);
      continue;
    }
    let list = result.addresses;
    if (port !== undefined) {
      list = result.addressesByPort.get(port) ?? new BlockList();
      result.addressesByPort.set(port, list);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(host, prefix ?? (family === 4 ? 32 : 128), type);
  }
  compiled.set(allow, result);
  return result;
}

function inList(address: string, list: BlockList | undefined): boolean {
  if (!list) return false;
  if (isIP(address) === 4) return list.check(address, 'ipv4');
  const v4 = embeddedIPv4(address);
  return list.check(address, 'ipv6') || (v4 !== undefined && list.check(v4, 'ipv4'));
}

function isAllowed(address: string, port: number, allow: CompiledAllowList): boolean {
  return inList(address, allow.addresses) || inList(address, allow.addressesByPort.get(port));
}

export type CheckedAddress = { address: string; family: 4 | 6 };

/**
 * Resolves the host of `url` and returns its addresses, refusing the host when any of them is
 * private and not allowed on the URL's port: a name answering one public and one private address
 * would otherwise win half the time. A refusal comes before any connection, with one message
 * whatever listens there, so refusals cannot tell which private ports are open.
 */
export async function resolvePublic(url: URL, allow: AllowList): Promise<CheckedAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const exceptions = compile(allow);
  const literal = isIP(host);
  const addresses: CheckedAddress[] = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : (await dns.promises.lookup(host, { all: true, verbatim: true })).map(
        ({ address, family }) => ({ address, family: family as 4 | 6 }),
      );
  if (exceptions.hosts.has(host) || exceptions.hosts.has(`${host}:${port}`)) return addresses;
  const refused = addresses.some(
    ({ address }) => isPrivateAddress(address) && !isAllowed(address, port, exceptions),
  );
  if (refused || addresses.length === 0) {
    throw new FeedError('feed.refused', `Refused: ${host} resolves to a private address`);
  }
  return addresses;
}
