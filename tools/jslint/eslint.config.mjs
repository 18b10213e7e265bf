// ESLint for the table app's browser JavaScript, run by `make lint` from the checkout with
// `-c tools/jslint/eslint.config.mjs`. The files are ES modules loaded by the browser; which file
// may import which is checked by tests/app/test_shell_knows_no_game.py, so no import plugin here.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    files: ["host/app/static/js/**/*.js", "host/games/*/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      ...js.configs.recommended.rules, // no-undef, no-unused-vars, no-dupe-keys, …
      // `const { a: _, ...rest } = o` drops a key; `(x, _y) =>` keeps a table's signatures alike
      "no-unused-vars": ["error", { ignoreRestSiblings: true, argsIgnorePattern: "^_" }],
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
