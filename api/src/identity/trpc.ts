/** Identity procedures for the web app; each is a thin call into the shared identity handlers. */
import {
  accountDeleteInput,
  accountDeleteOutput,
  checkUserUpdate,
  emailVerificationOutput,
  emailVerifyInput,
  loginInput,
  loginOutput,
  reauthenticateInput,
  registerInput,
  sessionOutput,
  twoFactorConfirmInput,
  twoFactorDisableInput,
  twoFactorLoginInput,
  userIdParam,
  userOutput,
  userUpdateFields,
} from '@quern/core/identity';
import { z } from 'zod';
import { identityClientOf } from '../http/identity-client.js';
import { authedProcedure, publicProcedure, router } from '../trpc/init.js';
import { passwordResetConfirmInput, passwordResetRequestInput } from '@quern/core/identity';

export const identityRouter = router({
  register: publicProcedure
    .input(registerInput)
    .output(sessionOutput)
    .mutation(({ ctx, input }) => ctx.identity.register(input, identityClientOf(ctx.http))),
  login: publicProcedure
    .input(loginInput)
    .output(loginOutput)
    .mutation(({ ctx, input }) => ctx.identity.login(input, identityClientOf(ctx.http))),
  /** The code step after a password step that answered `two_factor_required`. */
  loginTwoFactor: publicProcedure
    .input(twoFactorLoginInput)
    .output(sessionOutput)
    .mutation(({ ctx, input }) => ctx.identity.loginTwoFactor(input, identityClientOf(ctx.http))),
  twoFactorStatus: authedProcedure
    .output(z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number() }))
    .query(({ ctx }) => ctx.identity.twoFactorStatus(ctx.session)),
  startTwoFactor: authedProcedure
    .output(z.object({ enrollment_id: z.string(), secret: z.string(), otpauth_uri: z.string(), qr_svg: z.string() }))
    .mutation(({ ctx }) => ctx.identity.startTwoFactor(ctx.session)),
  confirmTwoFactor: authedProcedure
    .input(twoFactorConfirmInput)
    .output(z.object({ recovery_codes: z.array(z.string()) }))
    .mutation(({ ctx, input }) => ctx.identity.confirmTwoFactor(ctx.session, input)),
  disableTwoFactor: authedProcedure
    .input(twoFactorDisableInput)
    .mutation(({ ctx, input }) => ctx.identity.disableTwoFactor(ctx.session, input, identityClientOf(ctx.http))),
  /** Step-up re-authentication (ADR 045) before creating keys and webhook endpoints. */
  reauthenticate: authedProcedure
    .input(reauthenticateInput)
    .output(z.object({ success: z.literal(true) }))
    .mutation(({ ctx, input }) => ctx.identity.reauthenticate(ctx.session, input, identityClientOf(ctx.http))),
  /** The startup verify call: the session's id and e-mail, or null for a visitor. */
  session: publicProcedure
    .output(sessionOutput.nullable())
    .query(({ ctx }) => ctx.getSession().then((s) => (s ? { id: s.userId, email: s.email } : null))),
  logout: publicProcedure.mutation(({ ctx }) => ctx.identity.logout(identityClientOf(ctx.http))),
  user: authedProcedure
    .input(z.strictObject({ id: userIdParam }))
    .output(userOutput)
    .query(({ ctx, input }) => ctx.identity.getUser(ctx.session, input.id)),
  /** POST /api/user/update/{id} for the web app: the id with exactly one field (see userUpdateInput). */
  update: authedProcedure
    .input(z.strictObject({ id: userIdParam, ...userUpdateFields }).superRefine(checkUserUpdate))
    .output(userOutput)
    .mutation(({ ctx, input: { id, ...fields } }) => ctx.identity.updateUser(ctx.session, id, fields, identityClientOf(ctx.http))),
  /** POST /api/user/delete/{id} for the web app: always the session's own account (ADR 042). */
  deleteAccount: authedProcedure
    .input(accountDeleteInput)
    .output(accountDeleteOutput)
    .mutation(({ ctx, input }) => ctx.identity.deleteAccount(ctx.session, input, identityClientOf(ctx.http))),
  /** Whether the session's e-mail address is proven (ADR 046). */
  emailVerification: authedProcedure.output(emailVerificationOutput).query(({ ctx }) => ctx.identity.emailVerification(ctx.session)),
  resendEmailVerification: authedProcedure
    .output(emailVerificationOutput)
    .mutation(({ ctx }) => ctx.identity.resendEmailVerification(ctx.session, identityClientOf(ctx.http))),
  verifyEmail: publicProcedure.input(emailVerifyInput).mutation(({ ctx, input }) => ctx.identity.verifyEmail(input)),
  requestPasswordReset: publicProcedure
    .input(passwordResetRequestInput)
    .mutation(({ ctx, input }) => ctx.identity.requestPasswordReset(input, identityClientOf(ctx.http))),
  confirmPasswordReset: publicProcedure
    .input(passwordResetConfirmInput)
    .mutation(({ ctx, input }) => ctx.identity.confirmPasswordReset(input)),
});
