/** What other features use of the API docs: the view that renders an OpenAPI document. */
export { ReferenceView, type ReferenceViewProps } from "./ReferenceView.tsx";
