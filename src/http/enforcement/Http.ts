import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { EnforcementFeed as FeedSchema } from "../../domain/Enforcement.ts"
import { EnforcementFeed } from "../../services/EnforcementFeed.ts"
import { EnforcementLake } from "../../services/EnforcementLake.ts"
import { Api } from "../Api.ts"
import { weakEtag } from "../middleware/Caching.ts"
import { noStoreWhenDegraded } from "../SoftAnswer.ts"

const encoder = new TextEncoder()

/** A file name for `Content-Disposition` built from the id's safe characters only. */
const fileName = (id: string) => `${id.replace(/[^A-Za-z0-9_-]/g, "_")}.pdf`

export const EnforcementHttpLive = HttpApiBuilder.group(Api, "enforcement", (handlers) =>
  Effect.gen(function*() {
    const feed = yield* EnforcementFeed
    const lake = yield* EnforcementLake
    const degraded = noStoreWhenDegraded(FeedSchema, (answer) => answer.sources.some((s) => s.status !== "ok"))
    return handlers
      .handle("feed", ({ urlParams }) => Effect.flatMap(feed.actions(urlParams), degraded))
      .handle("documents", ({ urlParams: { stats, ...params } }) =>
        stats === "1" || stats === "true" ? lake.stats : lake.search(params))
      .handle("document", ({ path }) =>
        lake.document(path.id))
      .handle("documentText", ({ path }) =>
        Effect.map(lake.text(path.id), (markdown) => {
          const bytes = encoder.encode(markdown)
          return HttpServerResponse.uint8Array(bytes, {
            contentType: "text/markdown; charset=utf-8",
            headers: { etag: weakEtag(bytes) }
          })
        }))
      .handle("documentFile", ({ path }) =>
        Effect.map(lake.file(path.id), ({ bytes, etag }) =>
          HttpServerResponse.uint8Array(bytes, {
            contentType: "application/pdf",
            headers: { etag, "content-disposition": `inline; filename="${fileName(path.id)}"` }
          })))
  }))
