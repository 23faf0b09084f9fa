/**
 * `npm run doctor`: prints the mode and checks the configuration and everything it names (the
 * event store, Redis, the millix node, PayPal's credentials, the SMTP server, the key files),
 * without starting Quern and without writing anything. Exits 0 only when every check passes
 * (ADR 049); 1 otherwise, also when the configuration does not parse.
 */
import { loadConfig } from '../config.js';
import { formatDoctorReport, runDoctorChecks } from '../modes/doctor.js';

async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    // The mode's rules are one of the checks, reported next to the others rather than thrown.
    config = loadConfig(process.env, { modeRules: false });
  } catch (error) {
    console.log(
      `Quern doctor: ${process.env.QUERN_MODE ?? 'sandbox'} mode\n  FAIL  configuration: ${error instanceof Error ? error.message : String(error)}`,
    );
    console.log('doctor: 1 check(s) failed: configuration');
    return 1;
  }
  const checks = await runDoctorChecks(config);
  console.log(formatDoctorReport(config.QUERN_MODE, checks));
  return checks.every((check) => check.ok) ? 0 : 1;
}

process.exit(await main());
