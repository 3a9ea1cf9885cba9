/** One operation of the service's document, `$ref`s of its parts not yet followed. */
export interface ServerOperation {
  path: string;
  method: string;
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
}
