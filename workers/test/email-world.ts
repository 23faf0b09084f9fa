/**
 * Test support for the e-mail job specs: each test gets a fresh log, a real SMTP server on
 * loopback with a mailer pointed at it, and a Redis connection under its own key prefix; closing
 * the world deletes that prefix's keys and everything else it opened.
 */
import { createMailer, type Mailer } from '@quern/adapters/mail';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import type { Redis } from 'ioredis';
import { connectRedis, deleteKeys, uniquePrefix } from './pipeline.js';
import { openTempStore, type TempStore } from './store.js';

export interface EmailWorld {
  temp: TempStore;
  smtp: TestSmtpServer;
  mailer: Mailer;
  redis: Redis;
  prefix: string;
}

export async function openEmailWorld(redisUrl: string): Promise<EmailWorld> {
  const temp = openTempStore();
  const smtp = await startTestSmtpServer();
  const mailer = createMailer({ smtpUrl: smtp.url, dataDir: temp.dir, from: 'Quern <no-reply@quern.example>' });
  return { temp, smtp, mailer, redis: connectRedis(redisUrl), prefix: uniquePrefix() };
}

export async function closeEmailWorld(world: EmailWorld): Promise<void> {
  await world.mailer.close();
  await world.smtp.stop();
  await deleteKeys(world.redis, world.prefix);
  world.redis.disconnect();
  await world.temp.dispose();
}
