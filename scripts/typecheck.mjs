// `npm run typecheck`: every TypeScript file, two `tsc --noEmit` at a time (tsc uses one core;
// CI machines have two). Prints each program's errors as it finishes; exits 1 when any has some.
import { spawn } from 'node:child_process';

// One program per set of compiler options, largest first so the two slots end close together:
// every Node workspace, bench and scripts together (a workspace's own tsconfig.json re-checked
// core and each workspace below it); web (DOM, JSX); core without Node's types, so no Node API
// creeps into it; web/e2e (Node and the DOM). Every file is in at least one of them (ADR 076).
const projects = ['tsconfig.node.json', 'web', 'core', 'web/e2e'];
const concurrency = 2;
const root = new URL('..', import.meta.url).pathname;
const tsc = new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname;

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit', '--pretty'], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      if (code !== 0) process.stdout.write(`tsc -p ${project}: exit ${code}\n${output}\n`);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
const results = [];
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let project = queue.shift(); project !== undefined; project = queue.shift()) results.push(await check(project));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
