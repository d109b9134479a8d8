# workerd config: `npm start` runs `workerd serve config.capnp`, serving dist/server.js on
# http://127.0.0.1:8787/mcp (another address: npm start -- --socket-addr http=127.0.0.1:9000).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .mcpWorker)__STORE_SERVICES__ ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const mcpWorker :Workerd.Worker = (
  modules = [ (name = "server.js", esModule = embed "dist/server.js") ],
  compatibilityDate = "2026-08-01",
__STORE_WORKERD__
);
