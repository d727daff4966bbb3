import { Fragment } from "react";
import { hasMask, splitMasks } from "@/lib/domain/secrets/masks";
import { SecretMask } from "./secret-mask";

/** Text with each mask in it as a SecretMask (a reveal button for those allowed); text without one as it is. */
export function MaskedText({ text }: { text: string }) {
  if (!hasMask(text)) return <>{text}</>;
  return (
    <>
      {splitMasks(text).map((piece, i) =>
        "mask" in piece ? (
          <SecretMask key={i} mask={piece.mask} label={piece.label} fingerprint={piece.fingerprint} />
        ) : (
          <Fragment key={i}>{piece.text}</Fragment>
        ),
      )}
    </>
  );
}
