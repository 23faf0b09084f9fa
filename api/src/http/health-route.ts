/**
 * GET /healthz. Anyone may ask whether Quern is up (200 or 503 with `{ ok }`), so load balancers
 * and uptime monitors need nothing. Which part is down, and the error text behind it, describes
 * the inside of the deployment (addresses, versions, error messages), so only an operator reads
 * it: a caller on the machine itself, or one presenting HEALTH_TOKEN. The mode (sandbox or live)
 * is for everyone, as every page's banner shows it (ADR 049).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { isLoopbackHost } from '@quern/adapters/runtime';
import { type Request, Router } from 'express';
import type { HealthCheck } from '../health.js';

/**
 * A loopback caller with no forwarding header. A reverse proxy on the same machine connects from
 * loopback for every client it forwards, and says so with these headers: its callers are not local.
 */
function isLocalCaller(req: Request): boolean {
  if (req.get('x-forwarded-for') !== undefined || req.get('forwarded') !== undefined) return false;
  const address = req.socket.remoteAddress ?? '';
  return isIP(address) !== 0 && isLoopbackHost(address);
}

/** Compares digests, so neither the token's length nor its bytes leak through timing. */
function presentsToken(req: Request, token: string | undefined): boolean {
  if (!token) return false;
  const presented = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
  if (!presented) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

export function healthRoute(health: HealthCheck, token: string | undefined): Router {
  const router = Router();
  router.get('/healthz', async (req, res) => {
    const report = await health();
    res.status(report.ok ? 200 : 503);
    if (isLocalCaller(req) || presentsToken(req, token)) res.json(report);
    else res.json({ ok: report.ok, mode: report.mode });
  });
  return router;
}
