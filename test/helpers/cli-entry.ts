// Runs the gatehouse command from source, as bin/gatehouse.js runs it from the build.
import { main } from '../../src/cli/main.js';

await main(process.argv.slice(2));
