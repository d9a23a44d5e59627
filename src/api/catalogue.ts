/** The API layer's view of the status-code catalogue (the data is the leaf module src/status-codes.ts). */
export { catalogue, type StatusCode, type StatusEntry } from '../status-codes.ts';
