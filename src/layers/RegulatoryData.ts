import { Layer } from "effect"
import { AppRoutesWithRegulatoryData } from "../http/App.ts"
import * as CclIndex from "../services/CclIndex.ts"
import * as CountryChart from "../services/CountryChart.ts"
import type { EcfrSource } from "../services/EcfrSource.ts"
import { SharedServices } from "./Public.ts"

/** `CclIndex` and `CountryChart`, parsed from the parts an `EcfrSource` serves. */
export const RegulatoryDataServices = CountryChart.layer.pipe(Layer.provideMerge(CclIndex.layer))

/**
 * The public app with `/api/eccn/{eccn}` and `/api/country-chart`, over the given eCFR source.
 * `PublicApp` becomes this once `EcfrSource` has a live layer.
 */
export const publicAppWithRegulatoryData = <E, R>(ecfrSource: Layer.Layer<EcfrSource, E, R>) =>
  AppRoutesWithRegulatoryData.pipe(
    Layer.provide(RegulatoryDataServices),
    Layer.provide(ecfrSource),
    Layer.provide(SharedServices)
  )
