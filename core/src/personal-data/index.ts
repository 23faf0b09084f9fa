/**
 * Which recorded fields are personal data, and whose (ADR 042). The event log is immutable, so
 * these fields are written sealed with a key of their own per person; deleting the account
 * destroys that key and every one of them becomes unreadable at once, in the log and in every
 * backup of it, while amounts, ids and times stay readable for the audit.
 *
 * A rule names the fields and the person they belong to (the account whose key seals them).
 * Fields not named here are stored as they are: keep personal data out of any other field.
 */

/** What a sealed field reads as once its owner's key is destroyed. Non-empty, so schemas accept it. */
export const ERASED = '[erased]';

/** A sealed value as stored: a version prefix, then base64url of nonce, ciphertext and tag. */
export const SEALED_PREFIX = 'sealed:v1:';
export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(SEALED_PREFIX);

export interface PersonalDataRule {
  /** The account whose key seals the fields; undefined when the event names no account. */
  owner(data: Record<string, unknown>): string | undefined;
  /** String fields that are personal data (absent or non-string fields are left alone). */
  fields: readonly string[];
}

const byUserId = (data: Record<string, unknown>): string | undefined => (typeof data.userId === 'string' ? data.userId : undefined);

const byMerchant = (data: Record<string, unknown>): string | undefined =>
  typeof data.merchantUserId === 'string' ? data.merchantUserId : undefined;

export const personalDataRules: Readonly<Record<string, PersonalDataRule>> = {
  // The username is not sealed: it is the public handle others pay and see in their histories,
  // and it stays reserved after deletion so no one can take over a deleted account's name.
  // The password hash is no detail either, but a readable hash in every backup of the log can be
  // attacked offline long after the account is gone: sealed, it goes with the account (ADR 046).
  UserRegistered: { owner: byUserId, fields: ['firstName', 'lastName', 'email', 'phone', 'passwordHash'] },
  PasswordChanged: { owner: byUserId, fields: ['passwordHash'] },
  UserNameChanged: { owner: byUserId, fields: ['firstName', 'lastName'] },
  UserPhoneChanged: { owner: byUserId, fields: ['phone', 'previousPhone'] },
  // The TOTP secret is a credential, not a detail, but it is sealed with the same key so that it
  // is never stored in the clear (ADR 040) and goes with the account.
  TwoFactorEnrollmentStarted: { owner: byUserId, fields: ['secret'] },
  // The recovery codes' argon2id hashes (ADR 045): a credential too, sealed for the same reasons.
  TwoFactorEnabledV2: { owner: byUserId, fields: ['recoveryCodes'] },
  IdentityKeyClaimed: { owner: byUserId, fields: ['value'] },
  IdentityKeyReleased: { owner: byUserId, fields: ['value'] },
  SupportMessageSubmitted: { owner: byUserId, fields: ['fromEmail', 'fromName', 'subject', 'text'] },
  // A merchant's payout names its recipient as the request did (perhaps an e-mail address); it is
  // the recipient's personal data when the recipient is a Quern account.
  PayoutRequested: {
    owner: (data) => (typeof data.toWalletId === 'string' ? data.toWalletId : undefined),
    fields: ['to'],
  },
  // A webhook endpoint's signing secret is the merchant's credential, not a detail: sealed with
  // the merchant's key so that neither the log nor a backup of it holds it readable (ADR 056).
  // Secrets recorded before this rule read as they were stored and keep signing.
  WebhookEndpointCreated: { owner: byMerchant, fields: ['secret'] },
  WebhookEndpointSecretRotated: { owner: byMerchant, fields: ['secret'] },
  // The payer's e-mail a merchant gives an invoice, for mailing a refund's claim link (ADR 087):
  // the payer has no account here, so it is sealed with the merchant's key and goes with the merchant.
  InvoiceCreated: { owner: byMerchant, fields: ['customerEmail'] },
  // The same recipient, as a webhook delivery to the merchant reports the payout (ADR 046).
  WebhookDeliveryScheduled: {
    owner: (data) => (typeof data.payeeUserId === 'string' ? data.payeeUserId : undefined),
    fields: ['payoutTo'],
  },
};

/**
 * Binds a sealed value to its place: moving a ciphertext to another field, event type or account
 * makes it fail to open instead of reading as someone else's data.
 */
export const sealingContext = (eventType: string, owner: string, field: string): string => `${eventType}\u0000${owner}\u0000${field}`;

/**
 * Identity-key streams (`identity-key-<kind>-<normalized value>`, one per unique username, e-mail
 * and phone) are named by their value in the domain; the store records them as
 * `identity-key-<kind>.<keyed digest>`, so no stream in the log is named by personal data.
 */
export const IDENTITY_KEY_STREAM = /^identity-key-(username|email|phone)-(.+)$/s;
export const digestedIdentityKeyStream = (kind: string, digest: string): string => `identity-key-${kind}.${digest}`;

/** The port the identity slice uses to forget an account. */
export interface PersonalDataVault {
  /** Destroys the account's key for good: its sealed fields read as ERASED from then on, everywhere. */
  forget(userId: string): Promise<void>;
  /** Whether the account's key was destroyed. */
  isForgotten(userId: string): Promise<boolean>;
}
