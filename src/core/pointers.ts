// JSON Pointers into the bundled document, built in one place (no import of the document itself).

/** Escapes one JSON Pointer segment ("/api/x" -> "~1api~1x"). */
export const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Unescapes one JSON Pointer segment ("~1api~1x" -> "/api/x"). */
export const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The operation object of `method` (any case) on `path`. */
export const operationPointer = (path: string, method: string) =>
  `#/paths/${escapePointer(path)}/${method.toLowerCase()}`;

/** The JSON request body schema of an operation. */
export const requestSchemaPointer = (path: string, method: string) =>
  `${operationPointer(path, method)}/requestBody/content/application~1json/schema`;
