// check: `plait check MANIFEST`, CCM's monitor-only mode: compiles the manifest and runs only the
// health checks of its resources (those its control does not skip). Nothing is observed, planned
// or changed. The exit code follows the nagios convention, so a monitoring system can run it as a
// plugin: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (also for a manifest that does not compile).
import * as Terminal from '../core/Terminal.js'
import { Command, CommanderError } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Health from '../executor/health.js'
import * as Options from './options.js'
import * as Posix from '../interpreters/posix/posix.js'
import * as HealthM from '../types/Health.js'
import * as Hidden from './hidden.js'
import { boltReferences, compileResolved, quietSession } from './pipeline.js'
import * as Render from './render.js'
import * as Streams from './streams.js'

interface Flags extends Options.PluginFlags {
  readonly root?: string
  readonly facts?: string
  readonly fact?: ReadonlyArray<string>
  readonly hiera?: string
  readonly providerPath?: string[]
  readonly json?: boolean
}

/** The CommanderError code of `plait check`'s exit (main passes its status through). */
export const exitCode = 'plait.check'

const exit = (status: number): never => {
  throw new CommanderError(status, exitCode, `exit ${status}`)
}

/** Adds `plait check` to a program. */
export const register = (program: Command): void => {
  const command = program
    .command('check')
    .description("run only the manifest's health checks (monitor-only); exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN")
    .argument('<manifest>', 'the manifest (CCM YAML format)')
    .addOption(Options.root('the root the manifest is planned for (checks run on this host; their commands see PLAIT_ROOT_DIR)'))
  Options.manifestInputs(command)
    .option('--json', 'print the results as JSON')
    .action(async (manifest: string, o: Flags) => {
      const root = await Options.resolveRoot(o.root)
      if (E.isLeft(root)) {
        Streams.err(`error: ${root.left.message}\n`)
        Streams.out('UNKNOWN: bad --root\n')
        return exit(3)
      }
      const machine = Posix.make(root.right !== '/' ? { root: root.right } : {})
      const source = { ...(o.facts !== undefined ? { factsFile: o.facts } : {}), ...(o.hiera !== undefined ? { hiera: o.hiera } : {}), assignments: o.fact ?? [] }
      const compiled = await compileResolved(manifest, machine, source, { providerPath: o.providerPath ?? [], session: quietSession(machine.root), references: boltReferences(Options.plugins(o)) }, (ds) => Streams.err(Render.warnings(ds)))
      if (E.isLeft(compiled)) {
        Streams.err(Render.diagnostics(compiled.left))
        Streams.out('UNKNOWN: the manifest does not compile\n')
        return exit(3)
      }
      const catalog = compiled.right.catalog
      // A check of a secret (its command, its name, what goss found) is shown with the secret as [sensitive].
      const hide = Hidden.text(Hidden.secretsOf(compiled.right.resolved))
      const runner = (await import('../interpreters/commands/posix.js')).make({ root: machine.root })
      // one service and one package manager for every check (each made on first use)
      const goss = (await import('../interpreters/goss/context.js')).shared(machine)
      const results: { id: string; result: HealthM.Result }[] = []
      for (const r of catalog.resources) {
        if (r._tag === 'skipped') continue
        const checks = catalog.links.get(r.id)?.healthChecks ?? []
        for (const c of checks) {
          const result = await Health.runCheck({ ...c, argv: [...c.argv] }, runner, Health.sleep, goss)
          results.push({ id: hide(r.id), result: { ...result, name: hide(result.name), message: hide(result.message) } })
        }
      }
      const worst = results.reduce<HealthM.Status>((w, x) => HealthM.worse(w, x.result.status), 'OK')
      if (o.json === true) {
        Streams.out(hide(Streams.json({ status: worst, checks: results.map((x) => ({ resource: x.id, ...x.result })) })))
      } else {
        for (const x of results) Streams.out(hide(`${x.result.status.padEnd(8)} ${Terminal.field(x.id)}: ${Terminal.field(HealthM.render(x.result))}\n`))
        const count = (s: HealthM.Status): number => results.filter((x) => x.result.status === s).length
        Streams.out(
          results.length === 0
            ? 'OK: the manifest has no health checks\n'
            : `${worst}: ${results.length} health check${results.length === 1 ? '' : 's'}, ${count('OK')} OK, ${count('WARNING')} WARNING, ${count('CRITICAL')} CRITICAL, ${count('UNKNOWN')} UNKNOWN\n`,
        )
      }
      if (worst !== 'OK') exit(HealthM.exitCodeOf(worst))
    })
}
