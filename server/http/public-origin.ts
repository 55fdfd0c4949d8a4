import proxyAddr from '@fastify/proxy-addr';
import type { FastifyRequest } from 'fastify';
import type { TrustProxy } from '../config.ts';

type TrustFunction = (address: string, hop: number) => boolean;

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether a peer may set X-Forwarded-* headers (the --trust-proxy setting). */
    trustsProxy: TrustFunction;
  }
}

/** The --trust-proxy setting as a function, given to Fastify as its `trustProxy` option. */
export function trustProxyFunction(setting: TrustProxy | undefined): TrustFunction {
  if (setting === true) return () => true;
  if (!setting || setting.length === 0) return () => false;
  return proxyAddr.compile(setting);
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

/**
 * The scheme, host and port a client used to reach Folio, for the absolute URLs Folio builds
 * (WebPub manifests, OAuth2 redirects). Behind a trusted proxy Fastify already takes the
 * protocol and host from X-Forwarded-Proto/Host; X-Forwarded-Port is added here when the
 * forwarded host carries no port of its own.
 */
export function publicOrigin(request: FastifyRequest): string {
  const protocol = request.protocol;
  let host = request.host;
  const forwardedPort = lastValue(request.headers['x-forwarded-port']);
  if (forwardedPort && /^\d{1,5}$/.test(forwardedPort) && isFromTrustedProxy(request) && !/:\d+$/.test(host)) {
    if (DEFAULT_PORTS[protocol] !== forwardedPort) host = `${host.replace(/:\d+$/, '')}:${forwardedPort}`;
  }
  return `${protocol}://${host}`;
}

/** True when the request's immediate peer is a trusted proxy, as Fastify decides for Proto/Host. */
export function isFromTrustedProxy(request: FastifyRequest): boolean {
  const peer = request.raw.socket?.remoteAddress;
  return peer !== undefined && request.server.trustsProxy(peer, 0);
}

function lastValue(header: string | string[] | undefined): string | undefined {
  const text = Array.isArray(header) ? header[header.length - 1] : header;
  return text?.split(',').pop()?.trim() || undefined;
}
