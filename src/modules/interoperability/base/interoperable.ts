import type { CrossChainCommand, CrossChainMethod } from '../../../engine/state_machine/cross_chain.js';
import type { Module } from '../../../engine/state_machine/module.js';

/**
 * The modules registered with the interoperability module (Klayr's registerInteroperableModule):
 * their crossChainMethod hooks run for every CCM, in registration order, and their
 * crossChainCommands are what CCMs addressed to them execute. Hooks are read when a CCM is
 * processed, so a module may declare them after it is registered.
 */
export class InteroperableModules {
  readonly #modules: Module[] = [];

  constructor(
    private readonly ownName: string,
    private readonly ownCommands: () => readonly CrossChainCommand<never>[],
  ) {}

  register(module: Module): void {
    if (this.#modules.some((m) => m.name === module.name))
      throw new Error(`Module ${module.name} is already registered as interoperable.`);
    this.#modules.push(module);
  }

  /** The registered modules' cross-chain methods, in registration order. */
  methods(): [string, CrossChainMethod][] {
    return this.#modules.flatMap((m): [string, CrossChainMethod][] =>
      m.crossChainMethod === undefined ? [] : [[m.name, m.crossChainMethod]],
    );
  }

  /** The cross-chain commands of a module, undefined for a module that is not registered. */
  commands(module: string): readonly CrossChainCommand<never>[] | undefined {
    if (module === this.ownName) return this.ownCommands();
    const found = this.#modules.find((m) => m.name === module);
    return found === undefined ? undefined : (found.crossChainCommands ?? []);
  }

  isRegistered(module: string): boolean {
    return this.#modules.some((m) => m.name === module);
  }

  method(module: string): CrossChainMethod | undefined {
    return this.#modules.find((m) => m.name === module)?.crossChainMethod;
  }
}
