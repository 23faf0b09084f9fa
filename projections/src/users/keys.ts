/** Key names of the users read model (all under rm:, so a rebuild finds them). */
export const userKey = (userId: string): string => `rm:user:${userId}`;
/** Hash: lower-case username -> user id. */
export const USER_ID_BY_USERNAME_KEY = 'rm:user-id-by-username';
/** Hash: normalized e-mail -> user id. */
export const USER_ID_BY_EMAIL_KEY = 'rm:user-id-by-email';
