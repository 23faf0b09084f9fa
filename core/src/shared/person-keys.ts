/**
 * How a person's username, e-mail and phone are written when they are keys (ADR 067). Identity
 * stores them this way and the wallet resolves recipients and filters history by them; both read
 * the one rule here, so the wallet needs nothing of the identity capability to normalise a name.
 */

/** Letters, digits and underscore only, as the spec's username rule says. */
export const usernamePattern = /^[A-Za-z0-9_]+$/;

/** Strips the separators people type in phone numbers so "+1 (555) 010-2030" claims one key. */
export const normalizePhone = (phone: string): string => phone.replace(/[\s().-]/g, '');
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
export const normalizeUsername = (username: string): string => username.trim().toLowerCase();
