import { createServer } from "./server.js";

// Created once per isolate; every request is served statelessly.
const server = createServer();
export default { fetch: (request: Request) => server.fetch(request) };
