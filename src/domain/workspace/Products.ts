import { Schema } from "effect"
import { CursorField, Day, Eccn, exact, Instant, Limit, matching, Text } from "./Fields.ts"

/** The products registry: one classification per product label (case-insensitive) of a workspace. */

/** Days after which a classification is due for review even without a rule change. */
export const StaleAfterDays = 30

export const ProductLabel = Text(200)

export const ProductUpsert = Schema.Struct({
  label: ProductLabel,
  jurisdiction: Schema.Literal("EAR", "ITAR"),
  eccn: Schema.optionalWith(Eccn, exact),
  usml_category: Schema.optionalWith(
    matching(/^[IVX]{1,5}(?:\([a-z0-9]+\))*$/, "must be a USML category such as XI(a)"),
    exact
  ),
  rationale: Schema.optionalWith(Text(4000), exact),
  memo_document: Schema.optionalWith(
    Text(100),
    exact
  ),
  classified_by: Text(200),
  classified_on: Schema.optionalWith(Day, exact)
}).pipe(
  Schema.filter((product) =>
    product.jurisdiction === "EAR"
      ? product.eccn !== undefined || "must name `eccn` when jurisdiction is EAR"
      : product.usml_category !== undefined || "must name `usml_category` when jurisdiction is ITAR"
  )
)
export type ProductUpsert = typeof ProductUpsert.Type

export const StoredProduct = Schema.Struct({
  label: Schema.String,
  jurisdiction: Schema.Literal("EAR", "ITAR"),
  eccn: Schema.optionalWith(Schema.String, exact),
  usml_category: Schema.optionalWith(Schema.String, exact),
  rationale: Schema.optionalWith(Schema.String, exact),
  memo_document: Schema.optionalWith(Schema.String, exact),
  classified_by: Schema.String,
  classified_on: Day,
  updated_at: Instant
})
export type StoredProduct = typeof StoredProduct.Type

export const Product = Schema.Struct({
  ...StoredProduct.fields,
  stale: Schema.Boolean,
  stale_reasons: Schema.Array(Schema.String),
  rule_changes_checked: Schema.Boolean.annotations({
    description: "False when the Federal Register could not be read: staleness by rule change is then unknown"
  })
})
export type Product = typeof Product.Type

export const ProductRef = Schema.Struct({ label: ProductLabel })

export const ProductListParams = Schema.Struct({
  limit: Schema.optionalWith(Limit(100), exact),
  cursor: Schema.optionalWith(CursorField, exact)
})
export type ProductListParams = typeof ProductListParams.Type

export const ProductPage = Schema.Struct({
  products: Schema.Array(Product),
  count: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String)
})
export type ProductPage = typeof ProductPage.Type

/** The case-insensitive key of a label. */
export const labelKey = (label: string): string => label.normalize("NFKC").toLowerCase().replace(/\s+/g, " ")
