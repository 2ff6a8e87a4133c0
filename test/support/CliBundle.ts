import { build } from "esbuild"
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** `src/cli.ts` compiled to plain JavaScript for this run (see `bundleCli`). */
    readonly cliEntry: string
  }
}

const repoRoot = resolve(import.meta.dirname, "..", "..")

/**
 * `src/cli.ts` as one ES module plus lazily imported chunks, most npm packages left as imports. Under tsx
 * every `ecds` start resolves and loads a few hundred source files through tsx's loader thread, a
 * few seconds of CPU per process; the tests start the program well over a hundred times, so they run
 * this build instead (`test/cli/cli.test.ts` still runs `bin/ecds.mjs` through tsx, as users do).
 *
 * Each source keeps its own `import.meta.url`, so what a module finds next to itself (the bundled
 * skills, packages found through `createRequire`) is found where it is under tsx. The output lies
 * under the repository's `node_modules`, so the package imports resolve as they do from `src/`.
 */
export const bundleCli = async (outdir: string): Promise<string> => {
  await build({
    entryPoints: [join(repoRoot, "src", "cli.ts")],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    plugins: [{
      // npm packages stay imports, as `packages: "external"` would leave them, except JSON files
      // (esbuild drops the import attribute `with { type: "json" }` that Node needs for them) and
      // Effect's own packages, which Node would otherwise load file by file, several hundred of
      // them (about 0.6 s of CPU per start). No other package imports `effect`, so the build
      // holds its only copy.
      name: "packages-external",
      setup: (plugin) => {
        plugin.onResolve(
          { filter: /^[^./]/ },
          ({ path }) =>
            path.endsWith(".json") || /^(effect|@effect\/)/.test(path) ? undefined : { path, external: true }
        )
      }
    }, {
      name: "source-import-meta-url",
      setup: (plugin) => {
        plugin.onLoad({ filter: /\.ts$/ }, async ({ path }) => ({
          contents: (await readFile(path, "utf8")).replaceAll(
            "import.meta.url",
            JSON.stringify(pathToFileURL(path).href)
          ),
          loader: "ts"
        }))
      }
    }]
  })
  return join(outdir, "cli.js")
}

/**
 * vitest global setup: builds the program once per run (about a second) into a directory of its
 * own, so parallel runs in one checkout never share one, and builds it again when watch mode reruns.
 */
export default async function setup(project: TestProject) {
  const parent = join(repoRoot, "node_modules", ".cache", "ecds")
  await mkdir(parent, { recursive: true })
  const outdir = await mkdtemp(join(parent, "cli-"))
  project.provide("cliEntry", await bundleCli(outdir))
  project.onTestsRerun(async () => {
    await bundleCli(outdir)
  })
  return () => rm(outdir, { recursive: true, force: true })
}
