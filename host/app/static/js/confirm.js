// A question before something that cannot be taken back (a running game replaced, a seat link
// revoked): a dialog above everything else, answered by a tap; resolves true or false.

import { h } from "./dom.js";

export function confirmDialog(i18n, question, okLabel) {
  return new Promise((resolve) => {
    const layer = h("div.overlay.confirm-layer", { id: "confirm" });
    const answer = (yes) => {
      layer.remove();
      resolve(yes);
    };
    layer.append(
      h(
        "div.dialog.confirm",
        { role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-question" },
        h("p", { id: "confirm-question" }, question),
        h(
          "div.confirm-buttons",
          {},
          h("button.secondary", { type: "button", id: "confirm-no", onclick: () => answer(false) }, i18n.t("confirm.cancel")),
          h("button.primary", { type: "button", id: "confirm-yes", onclick: () => answer(true) }, okLabel),
        ),
      ),
    );
    document.body.append(layer);
    layer.querySelector("#confirm-no").focus();
  });
}
