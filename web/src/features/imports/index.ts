/**
 * What the imports feature offers other features (tests/unit/layering_test.ts): the provider offers
 * grid, which Projects > External Projects shows too.
 */
export { type ExternalOffer, externalOffersDecl } from "./imports.ts";
export { useOfferGrid } from "./OfferGrid.tsx";
