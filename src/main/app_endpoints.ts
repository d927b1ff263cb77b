import type { Endpoints } from '../lib/endpoint/definition.js';
import type { EndpointRegistry } from '../rpc/registry.js';

/** The events klayr-framework's application registers on its bus (Kestrel's plugins register none). */
const APPLICATION_EVENTS = ['app_ready', 'app_shutdown'];

/**
 * klayr-framework's root endpoints (application.js _rootEndpoints), served by its bus: the names the application
 * serves (its own, the modules' and the plugins', in registration order; not the engine's) and its events. Klayr
 * Service reads both before anything else, and cannot start without them.
 */
export const appEndpoints = (registry: EndpointRegistry): Endpoints => ({
  getRegisteredEndpoints: {
    description: "The methods the application serves: app_*, the modules' and the plugins' (not the engine's).",
    handler: () => registry.applicationNames(),
  },
  getRegisteredEvents: {
    description: "The application's bus events.",
    handler: () => [...APPLICATION_EVENTS],
  },
});
