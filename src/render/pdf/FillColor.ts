/**
 * pdfkit writes a colour space and a colour operator every time the fill colour is set, and the
 * layout sets it with every font change (each table cell, each run of text): most of those set
 * the colour already in force. This skips a fill colour equal to the one in force in the page's
 * graphics state, tracked per page (content appended to an earlier page continues its state) and
 * through `save`/`restore`. What is drawn is the same; the page streams are shorter.
 */
interface PageState {
  /** The fill colour in force, as it was given; undefined when unknown (a gradient, a pattern, after an unmatched restore). */
  fill: string | undefined
  readonly saved: Array<string | undefined>
}

interface Hooks {
  readonly page: object | undefined
  _fillColor: unknown
  fillColor(color: unknown, opacity?: number): unknown
  save(): unknown
  restore(): unknown
}

export const skipRepeatedFills = (doc: PDFKit.PDFDocument): void => {
  const hooks = doc as unknown as Hooks
  const states = new WeakMap<object, PageState>()
  const stateOf = (): PageState | undefined => {
    const page = hooks.page
    if (page === undefined) return undefined
    let state = states.get(page)
    if (state === undefined) states.set(page, state = { fill: undefined, saved: [] })
    return state
  }
  const fillColor = hooks.fillColor.bind(doc)
  const save = hooks.save.bind(doc)
  const restore = hooks.restore.bind(doc)
  hooks.fillColor = (color, opacity) => {
    const state = stateOf()
    if (state !== undefined && opacity === undefined && typeof color === "string" && state.fill === color) {
      // what pdfkit remembers of the call (underlines are stroked in it)
      hooks._fillColor = [color, opacity]
      return doc
    }
    fillColor(color, opacity)
    if (state !== undefined) state.fill = typeof color === "string" ? color : undefined
    return doc
  }
  hooks.save = () => {
    const state = stateOf()
    state?.saved.push(state.fill)
    return save()
  }
  hooks.restore = () => {
    const state = stateOf()
    if (state !== undefined) state.fill = state.saved.length > 0 ? state.saved.pop() : undefined
    return restore()
  }
}
