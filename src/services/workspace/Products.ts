import { SqlClient } from "@effect/sql/SqlClient"
import { Clock, Context, Effect, Layer } from "effect"
import type { RadarItem } from "../../domain/Radar.ts"
import { decodeCursor, encodeCursor } from "../../domain/workspace/Cursor.ts"
import { dayOf } from "../../domain/workspace/Fields.ts"
import {
  labelKey,
  type Product,
  type ProductListParams,
  type ProductPage,
  type ProductUpsert,
  StaleAfterDays,
  StoredProduct
} from "../../domain/workspace/Products.ts"
import {
  type InvalidCursor,
  invalidCursor,
  RecordNotFound,
  type StoreUnavailable
} from "../../domain/workspace/Workspace.ts"
import { Radar } from "../Radar.ts"
import { decodeRecord, encodeRecord, pageOf, storeFailure } from "./Rows.ts"

export interface ProductsShape {
  readonly upsert: (workspace: string, input: ProductUpsert) => Effect.Effect<Product, StoreUnavailable>
  readonly list: (
    workspace: string,
    params: ProductListParams
  ) => Effect.Effect<ProductPage, InvalidCursor | StoreUnavailable>
  readonly get: (workspace: string, label: string) => Effect.Effect<Product, RecordNotFound | StoreUnavailable>
  readonly all: (workspace: string) => Effect.Effect<ReadonlyArray<StoredProduct>, StoreUnavailable>
  readonly restore: (workspace: string, product: StoredProduct) => Effect.Effect<void, StoreUnavailable>
}

export class Products extends Context.Tag("app/workspace/Products")<Products, ProductsShape>() {}

const decode = decodeRecord(StoredProduct)
const encode = encodeRecord(StoredProduct)

const dayMillis = 86_400_000

/** The five-character entry an ECCN or paragraph belongs to (`5A992.c` → `5A992`). */
const entryOf = (eccn: string) => eccn.slice(0, 5)

interface RuleFacts {
  readonly checked: boolean
  readonly items: ReadonlyArray<RadarItem>
}

/** Why a classification needs review: its age, and every later rule change naming its ECCN. */
export const staleness = (product: StoredProduct, today: number, rules: RuleFacts): Product => {
  const reasons: Array<string> = []
  const age = Math.floor((today - Date.parse(`${product.classified_on}T00:00:00Z`)) / dayMillis)
  if (age > StaleAfterDays) reasons.push(`classified ${age} days ago (review after ${StaleAfterDays} days)`)
  if (product.eccn !== undefined && product.eccn !== "EAR99") {
    const entry = entryOf(product.eccn)
    for (const item of rules.items) {
      if (item.publicationDate > product.classified_on && item.eccns.some((eccn) => entryOf(eccn) === entry)) {
        reasons.push(
          `rule change naming ${entry} published ${item.publicationDate} after classification: ` +
            `${item.citation ?? `FR Doc. ${item.documentNumber}`}, ${item.title}`
        )
      }
    }
  }
  return { ...product, stale: reasons.length > 0, stale_reasons: reasons, rule_changes_checked: rules.checked }
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient
  const radar = yield* Radar

  const ruleFacts = Effect.map(radar.recent(undefined), (answer): RuleFacts => ({
    checked: answer.error === undefined,
    items: answer.results
  }))

  const judge = (products: ReadonlyArray<StoredProduct>) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const rules = yield* ruleFacts
      return products.map((product) => staleness(product, now, rules))
    })

  const write = (workspace: string, product: StoredProduct) =>
    storeFailure(sql`INSERT INTO workspace_products (workspace, label_key, updated_at, record)
      VALUES (${workspace}, ${labelKey(product.label)}, ${product.updated_at}, ${encode(product)}::jsonb)
      ON CONFLICT (workspace, label_key) DO UPDATE SET updated_at = excluded.updated_at, record = excluded.record`)

  const upsert = (workspace: string, input: ProductUpsert) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const product: StoredProduct = {
        ...input,
        classified_on: input.classified_on ?? dayOf(now),
        updated_at: new Date(now).toISOString()
      }
      yield* write(workspace, product)
      return (yield* judge([product]))[0]!
    })

  const list = (workspace: string, params: ProductListParams) =>
    Effect.gen(function*() {
      const limit = params.limit ?? 50
      const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor, 1)
      if (params.cursor !== undefined && after === undefined) return yield* invalidCursor
      const rows = yield* storeFailure(sql<{ record: unknown; labelKey: string }>`SELECT label_key, record
        FROM workspace_products WHERE workspace = ${workspace}
        ${after === undefined ? sql`` : sql`AND label_key > ${after[0]!}`}
        ORDER BY label_key LIMIT ${limit + 1}`)
      const page = pageOf(rows, limit)
      const products = yield* judge(page.rows.map((row) => decode(row.record)))
      const last = page.rows.at(-1)
      return {
        products,
        count: products.length,
        next_cursor: page.more && last !== undefined ? encodeCursor([last.labelKey]) : null
      }
    })

  const get = (workspace: string, label: string) =>
    Effect.gen(function*() {
      const rows = yield* storeFailure(sql<{ record: unknown }>`SELECT record FROM workspace_products
        WHERE workspace = ${workspace} AND label_key = ${labelKey(label)}`)
      if (rows.length === 0) {
        return yield* new RecordNotFound({ message: "No product with this label in this workspace" })
      }
      return (yield* judge([decode(rows[0]!.record)]))[0]!
    })

  const all = (workspace: string) =>
    Effect.map(
      storeFailure(sql<{ record: unknown }>`SELECT record FROM workspace_products
        WHERE workspace = ${workspace} ORDER BY label_key`),
      (rows) => rows.map((row) => decode(row.record))
    )

  const restore = (workspace: string, product: StoredProduct) => Effect.asVoid(write(workspace, product))

  return { upsert, list, get, all, restore } satisfies ProductsShape
})

export const layer = Layer.effect(Products, make)
