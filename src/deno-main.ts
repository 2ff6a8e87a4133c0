import { serve } from "./deno.ts"

/**
 * The Deno process entry (`deno task start`): `Deno.serve` on `HOST`:`PORT`. Deno Deploy and
 * `deno serve` take the fetch handler `src/deno.ts` exports instead.
 */
serve()
