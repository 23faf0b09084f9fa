/**
 * `npm run faucet -- --to <username|email|address> --amount N`: deposits test MLX through the
 * simulated millix network, also while Quern is running. See api/src/infra/millix/faucet.ts.
 */
import { runFaucet } from '@quern/adapters/millix/faucet';

process.exitCode = await runFaucet(process.argv.slice(2), process.env, console);
