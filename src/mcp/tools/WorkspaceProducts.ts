import { Effect } from "effect"
import { Product, ProductListParams, ProductPage, ProductRef, ProductUpsert } from "../../domain/workspace/Products.ts"
import { Products } from "../../services/workspace/Products.ts"
import * as Tool from "../Tool.ts"
import { inWorkspace, json, reads, writes } from "./WorkspaceTool.ts"

const staleRule = "`stale`: classified over 30 days ago or before a rule change naming its ECCN."

/** Enterprise, MCP only: the products registry of the caller's workspace. */
export const upsertProduct = Tool.make({
  name: "upsert_product",
  title: "Upsert product",
  description: `Record a product's classification, keyed by label (case-insensitive). ${staleRule}`,
  version: "1.0.0",
  enterprise: true,
  annotations: writes("Upsert product"),
  input: ProductUpsert,
  output: json(Product),
  run: (input) => inWorkspace((workspace) => Effect.flatMap(Products, (store) => store.upsert(workspace, input)))
})

export const listProducts = Tool.make({
  name: "list_products",
  title: "List products",
  description: "Products by label: `{ products, count, next_cursor }`.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("List products"),
  input: ProductListParams,
  output: json(ProductPage),
  run: (params) => inWorkspace((workspace) => Effect.flatMap(Products, (store) => store.list(workspace, params)))
})

export const getProduct = Tool.make({
  name: "get_product",
  title: "Get a product",
  description: "One product by label.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("Get a product"),
  input: ProductRef,
  output: json(Product),
  run: ({ label }) => inWorkspace((workspace) => Effect.flatMap(Products, (store) => store.get(workspace, label)))
})

export const productTools = [upsertProduct, listProducts, getProduct] as const
