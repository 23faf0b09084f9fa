/**
 * Who a send can be addressed to by name (ADR 067). The wallet knows wallets, not people: a
 * username or an e-mail is turned into the user (whose wallet id is the user id) by this port,
 * which the identity capability implements and the composition root puts in WalletDeps.
 */
export interface PayeeDirectory {
  /** The user holding this (normalised) username, if any. */
  userIdByUsername(username: string): Promise<string | undefined>;
  /**
   * The user who may be paid at this (normalised) e-mail; undefined when none holds it. An
   * address its holder never proved is refused with the send's own message (ADR 046).
   */
  payeeByEmail(email: string): Promise<string | undefined>;
  /** The username of an account that exists (not deleted), if any. */
  usernameOf(userId: string): Promise<string | undefined>;
}
