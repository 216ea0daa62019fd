import dns from 'node:dns';
import net from 'node:net';
import { webhookUrlProblem } from '@coalx/shared';
import { badRequest } from '../../errors';

export const PRIVATE_ADDRESS_REFUSAL = '推送地址不能指向内网或本机地址';

/**
 * Addresses a member's endpoint may not be: the platform must not be made to call into its own network. Loopback,
 * this-network (0.0.0.0/8), the RFC 1918 ranges, link-local, unique-local and unspecified IPv6; an IPv4 address
 * written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it is.
 */
const PRIVATE = new net.BlockList();
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_IPV4_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** True for an address (IPv4 or IPv6 text) in a private, loopback or link-local range. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: never connect to it
  const dotted = MAPPED_IPV4.exec(address);
  if (dotted) return PRIVATE.check(dotted[1]!, 'ipv4');
  const hex = MAPPED_IPV4_HEX.exec(address);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return PRIVATE.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return PRIVATE.check(address, 'ipv6');
}

/** The host of a URL as a resolver or connect takes it (IPv6 literals without their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
}

export interface AddressOptions {
  /** config.webhookAllowPrivate (WEBHOOK_ALLOW_PRIVATE=1): tests and closed networks only */
  allowPrivate: boolean;
}

/**
 * The check of an endpoint address when it is registered or edited: http(s) only, and a name that resolves to public
 * addresses only (every one of them: a name with one private address among public ones is refused as well). Sending
 * checks again, on the addresses it connects to (delivery.ts's pinned lookup), so a name changed since is caught.
 */
export async function checkWebhookUrl(value: string, options: AddressOptions): Promise<URL> {
  const problem = webhookUrlProblem(value);
  if (problem) throw badRequest(problem);
  const url = new URL(value);
  if (options.allowPrivate) return url;
  const host = hostOf(url);
  if (net.isIP(host)) {
    if (isPrivateAddress(host)) throw badRequest(PRIVATE_ADDRESS_REFUSAL);
    return url;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw badRequest('推送地址的域名无法解析，请检查地址是否正确');
  }
  if (addresses.length === 0) throw badRequest('推送地址的域名无法解析，请检查地址是否正确');
  if (addresses.some((a) => isPrivateAddress(a.address))) throw badRequest(PRIVATE_ADDRESS_REFUSAL);
  return url;
}

/** A refusal at send time: the attempt fails with this text in the delivery log. */
export class PrivateAddressError extends Error {
  readonly code = 'EWEBHOOKPRIVATE';
  constructor() {
    super(PRIVATE_ADDRESS_REFUSAL);
  }
}

/**
 * A `lookup` for node:http that resolves the name and refuses to connect when any address it got is private: the
 * connection goes to an address that was checked, with no second resolution an attacker's DNS could answer
 * differently (DNS rebinding).
 */
export function checkedLookup(options: AddressOptions): net.LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as dns.LookupAddress[];
      if (!options.allowPrivate && (list.length === 0 || list.some((a) => isPrivateAddress(a.address)))) {
        return callback(new PrivateAddressError() as NodeJS.ErrnoException, '', 0);
      }
      if (lookupOptions.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
