// Runs the gatehouse command from source in a process of its own, as bin/gatehouse.js runs it from the build.
import { main, processIo } from '../../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2), processIo());
