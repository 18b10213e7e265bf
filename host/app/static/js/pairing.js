// Pairing a tablet with the table (docs/table-app.md, "Phones and tablets"): the code from the
// address the host printed (`/?pair=CODE`) pairs in one step; without it, or when it is wrong,
// a form asks for the code shown on the host's terminal. The token is kept on the device.

import { h, fill } from "./dom.js";
import { getJson, postJson, tableToken } from "./net.js";

/** The `?pair=` code of the address, removed from the address bar (and history) at once. */
function takeCodeFromAddress() {
  const params = new URLSearchParams(location.search);
  const code = params.get("pair");
  if (code === null) return null;
  params.delete("pair");
  const rest = params.toString();
  history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  return code.trim();
}

async function storedTokenWorks() {
  if (!tableToken.get()) return false;
  try {
    await getJson("/api/games");
    return true;
  } catch (err) {
    if (err?.code === "network") return true; // the server is out of reach, not refusing: keep the token
    tableToken.clear();
    return false;
  }
}

async function pairWith(code) {
  // pairing twice with the same code is harmless, so a request lost on the way is sent again
  const { token } = await postJson("/api/pair", { code }, { repeatable: true });
  tableToken.set(token);
}

function problemText(i18n, err) {
  if (err?.code === "forbidden") return i18n.t("pair.wrong");
  if (err?.code === "locked") return i18n.t("pair.locked");
  return i18n.refusal(err ?? { code: "other" }); // a network failure, a refusal: translated
}

/**
 * Resolves once this device holds a working table token. `show(el)` puts the form on screen,
 * `hide()` takes it away; `expired`: say that an earlier pairing stopped working.
 */
export async function pairDevice(i18n, { show, hide, expired = false }) {
  const fromAddress = takeCodeFromAddress();
  if (await storedTokenWorks()) return;
  let problem = expired ? i18n.t("pair.expired") : null;
  if (fromAddress) {
    try {
      await pairWith(fromAddress);
      return;
    } catch (err) {
      problem = problemText(i18n, err);
    }
  }
  await new Promise((resolve) => {
    const input = h("input", {
      id: "pair-code",
      name: "code",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      maxlength: "64",
      required: true,
      "aria-label": i18n.t("pair.code"),
    });
    const error = h("p.lobby-error", { id: "pair-error", role: "alert", hidden: !problem }, problem ?? "");
    const submit = h("button.primary", { type: "submit", id: "pair-submit" }, i18n.t("pair.submit"));
    const form = h(
      "form",
      {
        id: "pair-form",
        onsubmit: async (event) => {
          event.preventDefault();
          submit.disabled = true;
          try {
            await pairWith(input.value.trim());
            hide();
            resolve();
          } catch (err) {
            fill(error, problemText(i18n, err));
            error.hidden = false;
          } finally {
            submit.disabled = false;
          }
        },
      },
      h("label.field", {}, h("span", {}, i18n.t("pair.code")), input),
      error,
      submit,
    );
    show(h("div.dialog.pairing", { role: "dialog", "aria-modal": "true" }, h("h2", {}, i18n.t("pair.title")), h("p", {}, i18n.t("pair.hint")), form));
    input.focus();
  });
}
