#!/usr/bin/env node
// The bundle of dist/cli/main.js (scripts/bundle.mjs): the same code, loaded in a few files instead of ~300.
import '../dist/bundle/main.js';
