// Proves that no source file of the workspaces imports itself back through a chain of imports (an
// import circle, ADR 068): circles make load order matter and tie capabilities that should stand
// apart. Type-only imports count too, since they tie the modules' designs all the same.
import { relative, resolve } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const SOURCES = ['core/src', 'adapters/src', 'projections/src', 'workers/src', 'api/src', 'web/src'];
/** Tests may import what they prove from anywhere; only what ships is held to the rule. */
const NOT_SHIPPED = '(^|/)node_modules/|\\.spec\\.tsx?$|/dist/';

async function cruised(): Promise<ICruiseResult> {
  const reported = await cruise(
    SOURCES.map((source) => resolve(root, source)),
    { tsPreCompilationDeps: true, exclude: { path: NOT_SHIPPED }, baseDir: root },
    undefined,
    { tsConfig: { fileName: resolve(root, 'tsconfig.base.json') } },
  );
  if (typeof reported.output === 'string') throw new Error('dependency-cruiser answered text, not a result');
  return reported.output;
}

/** Each circle once, written from its first module, e.g. `a.ts -> b.ts -> a.ts`. */
function circlesOf(result: ICruiseResult): string[] {
  const circles = new Set<string>();
  for (const module of result.modules)
    for (const dependency of module.dependencies)
      if (dependency.circular) {
        const names = [module.source, ...(dependency.cycle ?? []).map((step) => step.name)].map((name) =>
          relative(root, resolve(root, name)),
        );
        const start = names.slice(0, -1).reduce((min, name, index, all) => (name < (all[min] ?? '') ? index : min), 0);
        const ring = [...names.slice(start, -1), ...names.slice(0, start)];
        circles.add([...ring, ring[0]].join(' -> '));
      }
  return [...circles].sort();
}

describe('import circles', () => {
  it('given every shipped module of core, adapters, projections, workers, api and web, when their imports are followed, then none comes back to itself', async () => {
    const result = await cruised();
    expect(result.modules.length).toBeGreaterThan(500);
    expect(circlesOf(result)).toEqual([]);
  }, 300_000);
});
