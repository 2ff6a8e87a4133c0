import { Effect } from "effect"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as ArchiveStore from "../src/services/enforcement/ArchiveStore.ts"
import { importDirectory, ImportRejected } from "../src/services/enforcement/Import.ts"
import { archiveRoot } from "../src/services/EnforcementLake.ts"

const usage = `usage: npm run enforcement -- import <dir> [--replace]

Imports <dir>/metadata.json and the PDFs it names into the enforcement archive under DATA_DIR.
Records are merged by id into the current archive; --replace starts the archive afresh.
A running service picks the new archive up within seconds.`

const [command, ...rest] = process.argv.slice(2)
const flags = new Set(rest.filter((arg) => arg.startsWith("--")))
const [dir] = rest.filter((arg) => !arg.startsWith("--"))

if (command !== "import" || dir === undefined || [...flags].some((flag) => flag !== "--replace")) {
  console.error(usage)
  process.exit(2)
}

const config = Effect.runSync(AppConfig.read)
const store = ArchiveStore.make(archiveRoot(config.dataDir))
try {
  const report = await importDirectory(store, dir, { replace: flags.has("--replace") })
  for (const warning of report.warnings) console.error(`warning: ${warning}`)
  console.log(JSON.stringify({
    generation: report.generation,
    imported: report.imported,
    total: report.total,
    by_parse_status: report.byStatus
  }))
} catch (error) {
  if (error instanceof ImportRejected) {
    for (const problem of error.problems.slice(0, 50)) console.error(`error: ${problem}`)
    if (error.problems.length > 50) console.error(`… and ${error.problems.length - 50} more`)
    console.error("nothing was imported")
  } else {
    console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  process.exit(1)
}
