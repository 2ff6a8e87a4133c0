import type { MigrationArea } from "./Area.ts"
import { enforcement } from "./enforcement.ts"
import { hardening } from "./hardening.ts"
import { ops } from "./ops.ts"
import { screening } from "./screening.ts"
import { store } from "./store.ts"
import { workspace } from "./workspace.ts"

/** Every area's migrations, run in this order (later areas may build on the store's tables). */
export const areas: ReadonlyArray<MigrationArea> = [store, enforcement, workspace, screening, hardening, ops]
