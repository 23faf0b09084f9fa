/** The notice e-mails' registration: their queue, their rules and their processor (ADR 072). */
import { emailJobModule } from '../job/job-module.js';
import { sendNoticeEmail } from './job.js';
import { NOTICE_EMAIL_QUEUE } from './payload.js';
import { noticeEmailRules } from './rules.js';

export const noticeEmailModule = emailJobModule(NOTICE_EMAIL_QUEUE, noticeEmailRules, sendNoticeEmail);
