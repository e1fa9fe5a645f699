<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>BundlePanel</name>
    <message>
        <source>These settings apply to every model bundled, by Bundle and by Bundle all, and are remembered, except the last three boxes (ticked for one run each); the boxes above belong to the selected row only.</source>
        <extracomment>Offered in the target-ORT box, newest first (the field stays editable for any X.Y).</extracomment>
        <translation>これらの設定は「バンドル」でも「すべてバンドル」でもバンドルするすべてのモデルに適用され、記憶されます (最後の 3 つのチェックボックスは記憶されず、実行ごとに選びます)。上の枠は選択した行だけのものです。</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <source>&amp;Previous bundle:</source>
        <translation>前回のバンドル(&amp;P):</translation>
    </message>
    <message>
        <source>&amp;Output folder:</source>
        <translation>出力フォルダー(&amp;O):</translation>
    </message>
    <message>
        <source>&amp;Target ONNX Runtime:</source>
        <translation>対象の ONNX Runtime(&amp;T):</translation>
    </message>
    <message>
        <source>model name used in the ZIP file name</source>
        <translation>ZIP ファイル名に使うモデル名</translation>
    </message>
    <message>
        <source>semantic version, e.g. 1.2.0</source>
        <translation>セマンティック バージョン（例: 1.2.0）</translation>
    </message>
    <message>
        <source>optional: the last released .zip, to compare interfaces</source>
        <translation>任意: 前回リリースした .zip（インターフェースを比較します）</translation>
    </message>
    <message>
        <source>any</source>
        <translation>指定なし</translation>
    </message>
    <message>
        <source>Oldest ONNX Runtime release the users have (X.Y); empty = no check</source>
        <translation>利用者の環境にある最も古い ONNX Runtime のリリース（X.Y）。空欄ならチェックしません</translation>
    </message>
    <message>
        <source>optional: e.g. auto, newest, or 1.16.3,1.20.1</source>
        <translation>任意: 例 auto、newest、1.16.3,1.20.1</translation>
    </message>
    <message>
        <source>Runs the bundled model on these ONNX Runtime releases and compares its outputs with this one&apos;s (--prove-ort): releases like 1.16.3,1.20.1; 1.16 = its newest patch; newest; auto = the oldest release the model claims plus the newest. Each release&apos;s official wheel is downloaded from PyPI once (checked against the published SHA-256) into an environment of its own in your cache folder; the first run takes a while, and Cancel stops it. Empty = not proven.</source>
        <translation>バンドルしたモデルをこれらの ONNX Runtime リリースで実行し、ここでの出力と比較します (--prove-ort)。指定は 1.16.3,1.20.1 のようなリリース、1.16 (その最新パッチ)、newest (最新)、auto (モデルが対応を主張する最古のリリースと最新) です。各リリースの公式 wheel は PyPI から一度だけダウンロードされ (公開されている SHA-256 で確認)、キャッシュ フォルダー内のリリースごとの環境に入ります。初回は時間がかかり、キャンセルで止められます。空欄 = 検証しない。</translation>
    </message>
    <message>
        <source>ONNX Runtime releases to prove the bundle on</source>
        <translation>バンドルを検証する ONNX Runtime リリース</translation>
    </message>
    <message>
        <source>&amp;Use suggestion</source>
        <translation>提案を使う(&amp;U)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>Choose the previous bundle</source>
        <translation>前回のバンドルを選択</translation>
    </message>
    <message>
        <source>Choose the output folder</source>
        <translation>出力フォルダーを選択</translation>
    </message>
    <message>
        <source>Signing &amp;key:</source>
        <translation>署名鍵(&amp;K):</translation>
    </message>
    <message>
        <source>Ho&amp;mepage:</source>
        <translation>ホームページ(&amp;M):</translation>
    </message>
    <message>
        <source>License (SPD&amp;X):</source>
        <translation>ライセンス (SPDX)(&amp;X):</translation>
    </message>
    <message>
        <source>Author&amp;s:</source>
        <translation>作成者(&amp;S):</translation>
    </message>
    <message>
        <source>&amp;Class labels:</source>
        <translation>クラスラベル(&amp;C):</translation>
    </message>
    <message>
        <source>optional: your private key (.key/.pem) to sign the bundle</source>
        <translation>任意: バンドルに署名する秘密鍵 (.key/.pem)</translation>
    </message>
    <message>
        <source>Only the file&apos;s location is remembered, never the key. Make a key pair with: onnxpack keygen</source>
        <translation>記憶するのはファイルの場所だけで、鍵そのものは保存しません。鍵ペアの作成: onnxpack keygen</translation>
    </message>
    <message>
        <source>Signing support (the model-signing library) is not installed. Install the sign extra from what you installed onnxpack from: in the onnxpack checkout, pip install &apos;.[sign]&apos;; from a wheel, pip install &apos;onnxpack-%1-py3-none-any.whl[sign]&apos;.</source>
        <translation>署名機能 (model-signing ライブラリ) がインストールされていません。onnxpack をインストールした元から sign エクストラを入れてください: onnxpack のチェックアウトでは pip install &apos;.[sign]&apos;、wheel からなら pip install &apos;onnxpack-%1-py3-none-any.whl[sign]&apos;。</translation>
    </message>
    <message>
        <source>Choose the signing key</source>
        <translation>署名鍵を選択</translation>
    </message>
    <message>
        <source>optional: e.g. MIT, Apache-2.0, CC-BY-4.0</source>
        <translation>任意: 例 MIT、Apache-2.0、CC-BY-4.0</translation>
    </message>
    <message>
        <source>optional: names, separated by ;</source>
        <translation>任意: 名前を ; で区切って入力</translation>
    </message>
    <message>
        <source>optional: https://…</source>
        <translation>任意: https://…</translation>
    </message>
    <message>
        <source>optional: one per class in output order, separated by commas</source>
        <translation>任意: 出力の順にクラスごとに 1 つ、カンマ区切り</translation>
    </message>
    <message>
        <source>Also include an ORT-format (.ort) variant</source>
        <translation>ORT 形式（.ort）版も同梱する</translation>
    </message>
    <message>
        <source>Compress the ZIP (weights rarely shrink; slower)</source>
        <translation>ZIP を圧縮する（重みはほとんど縮まず、時間がかかります）</translation>
    </message>
    <message>
        <source>Write the release version into the model&apos;s model_version</source>
        <translation>リリース バージョンをモデルの model_version に書き込む</translation>
    </message>
    <message>
        <source>Run the models and prove the bundled one gives identical outputs</source>
        <translation>モデルを実行し、バンドル後も出力が同一であることを証明する</translation>
    </message>
    <message>
        <source>Needs a Target ONNX Runtime. The released copy is retargeted for it: its IR version is lowered to the highest that runtime loads (newer-IR metadata that changes nothing computed is dropped, each item recorded in the manifest) and its opset is lowered where that is exact; a model that would compute differently is refused (--fix-ir).</source>
        <translation>対象 ONNX Runtime が必要です。リリースするコピーをそのランタイム向けに変換します: IR バージョンをそのランタイムが読める最大の値に下げ (計算に影響しない新しい IR のメタデータは削除し、各項目をマニフェストに記録)、正確に行える場合は opset も下げます。計算結果が変わるモデルは拒否します (--fix-ir)。</translation>
    </message>
    <message>
        <source>Overwrites NAME-VERSION.zip in the output folder if it exists (--force). The version and class-label checks still apply.</source>
        <translation>出力フォルダーに NAME-VERSION.zip があれば上書きします (--force)。バージョンとクラスラベルの確認はそのまま行われます。</translation>
    </message>
    <message>
        <source>Releases a version that is not above the previous bundle&apos;s (the manifest records a warning; --allow-version-not-greater). Off: such a version is refused.</source>
        <translation>前回のバンドル以下のバージョンでもリリースします (マニフェストに警告を記録; --allow-version-not-greater)。オフ: そのようなバージョンは拒否されます。</translation>
    </message>
    <message>
        <source>Keeps the class labels even when their number matches no output&apos;s last dimension (--allow-unmatched-labels). Off: such labels are refused.</source>
        <translation>クラスラベルの数がどの出力の最後の次元とも一致しなくてもラベルを残します (--allow-unmatched-labels)。オフ: そのようなラベルは拒否されます。</translation>
    </message>
    <message>
        <source>The original and the bundled model are run on CPU and must give identical outputs. Give sizes for symbolic dimensions (0 = choose automatically) and, optionally, .npy files with real inputs.</source>
        <translation>元のモデルとバンドル後のモデルを CPU で実行し、出力が完全に一致することを確かめます。シンボリック次元のサイズ（0 は自動）と、必要なら実データの .npy ファイルを指定してください。</translation>
    </message>
    <message>
        <source>Symbolic &amp;dimensions:</source>
        <translation>シンボリック次元(&amp;D):</translation>
    </message>
    <message>
        <source>&amp;Input data (optional):</source>
        <translation>入力データ（任意）(&amp;I):</translation>
    </message>
    <message>
        <source>Dimension</source>
        <translation>次元</translation>
    </message>
    <message>
        <source>Used by</source>
        <translation>使用する入力</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>.npy file</source>
        <translation>.npy ファイル</translation>
    </message>
    <message>
        <source>Sizes of symbolic dimensions</source>
        <translation>シンボリック次元のサイズ</translation>
    </message>
    <message>
        <source>Input data files</source>
        <translation>入力データ ファイル</translation>
    </message>
    <message>
        <source>&amp;Bundle</source>
        <translation>バンドル(&amp;B)</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>Ve&amp;rsion:</source>
        <translation>バージョン(&amp;R):</translation>
    </message>
    <message>
        <source>Prov&amp;e on ONNX Runtime:</source>
        <translation>検証する ONNX Runtime(&amp;E):</translation>
    </message>
    <message>
        <source>Every model bundled</source>
        <translation>バンドルするすべてのモデル</translation>
    </message>
    <message>
        <source>Signing and release information (every model)</source>
        <translation>署名とリリース情報 (すべてのモデル)</translation>
    </message>
    <message>
        <source>Adds NAME.ort and its operator list for ONNX Runtime Mobile and minimal builds (--ort-format).</source>
        <translation>ONNX Runtime Mobile や最小ビルド向けに NAME.ort とその演算子リストを加えます (--ort-format)。</translation>
    </message>
    <message>
        <source>Deflates the ZIP members; weights rarely shrink, and a compressed model cannot be loaded in place from the ZIP (--compress).</source>
        <translation>ZIP の中身を圧縮します。重みはほとんど小さくならず、圧縮したモデルは ZIP から直接読み込めません (--compress)。</translation>
    </message>
    <message>
        <source>Stores MAJOR.MINOR.PATCH as one number in the model&apos;s model_version field of the released copy (--set-model-version).</source>
        <translation>リリースするコピーのモデルの model_version に MAJOR.MINOR.PATCH を 1 つの数値として書き込みます (--set-model-version)。</translation>
    </message>
    <message>
        <source>Runs the original and the bundled model on CPU and records the proof that their outputs are identical (turned off: --no-smoke).</source>
        <translation>元のモデルとバンドルしたモデルを CPU で実行し、出力が同一である証明を記録します (オフ: --no-smoke)。</translation>
    </message>
    <message>
        <source>Smoke-run inputs of this model</source>
        <translation>このモデルのスモーク実行の入力</translation>
    </message>
    <message>
        <source>Size of dimension %1</source>
        <translation>次元 %1 のサイズ</translation>
    </message>
    <message>
        <source>This release: %1</source>
        <translation>このリリース: %1</translation>
    </message>
    <message>
        <source>This model: %1</source>
        <translation>このモデル: %1</translation>
    </message>
    <message>
        <source>This model</source>
        <translation>このモデル</translation>
    </message>
    <message>
        <source>Suggested: %1 %2</source>
        <translation>提案: %1 %2</translation>
    </message>
    <message>
        <source>Bundle &amp;all (%1)</source>
        <translation>すべてバンドル（%1 件）(&amp;A)</translation>
    </message>
    <message>
        <source>Previous bundle</source>
        <translation>前回のバンドル</translation>
    </message>
    <message>
        <source>Bundles and manifests (*.zip *.json)</source>
        <translation>バンドルとマニフェスト (*.zip *.json)</translation>
    </message>
    <message>
        <source>Signing key</source>
        <translation>署名鍵</translation>
    </message>
    <message>
        <source>Private keys (*.key *.pem);;All files (*)</source>
        <translation>秘密鍵 (*.key *.pem);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>出力フォルダー</translation>
    </message>
    <message>
        <source>Retarget for the target runtime (lower the IR version and opset where exact)</source>
        <extracomment>The Linguist context of each kind of registry text (a progress step&apos;s template: &quot;Stages&quot;). The options the Bundle tab has a checkbox for (each sets one option: replacing a bundle never also lets a version go backwards); a remedy naming one of them names the box the user sees.</extracomment>
        <translation>対象ランタイム向けに変換する (正確に行える場合は IR バージョンと opset を下げる)</translation>
    </message>
    <message>
        <source>Replace an existing bundle</source>
        <translation>既存のバンドルを置き換える</translation>
    </message>
    <message>
        <source>Allow a version not above the previous release</source>
        <translation>前回のリリース以下のバージョンを許可する</translation>
    </message>
    <message>
        <source>Keep class labels that fit no output</source>
        <translation>どの出力にも合わないクラスラベルを残す</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>No fix is known for this problem; the details below may help.</source>
        <translation>この問題の既知の対処法はありません。下の詳細が手がかりになるかもしれません。</translation>
    </message>
    <message>
        <source>How to fix: %1</source>
        <translation>対処法: %1</translation>
    </message>
    <message>
        <source>Error code: %1</source>
        <translation>エラー コード: %1</translation>
    </message>
    <message>
        <source>The message in English:</source>
        <translation>英語のメッセージ:</translation>
    </message>
</context>
<context>
    <name>DropPage</name>
    <message>
        <source>Drop ONNX models here</source>
        <translation>ここに ONNX モデルをドロップ</translation>
    </message>
    <message>
        <source>Drop one or more .onnx or .ort files or a model folder to inspect and bundle them, or an onnxpack .zip bundle to verify it.</source>
        <translation>.onnx / .ort ファイル（複数可）またはモデル フォルダーをドロップすると、検査してバンドルできます。onnxpack の .zip バンドルをドロップすると検証します。</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>開く…(&amp;O)</translation>
    </message>
    <message>
        <source>Try the &amp;sample model</source>
        <translation>サンプル モデルを試す(&amp;S)</translation>
    </message>
    <message>
        <source>Drop area</source>
        <translation>ドロップ領域</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>A path cannot be used</source>
        <translation>そのパスは使えません</translation>
    </message>
    <message>
        <source> (and %1 more)</source>
        <translation>（ほか %1 件）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>An author&apos;s name is empty</source>
        <translation>著者の名前が空です</translation>
    </message>
    <message>
        <source>The homepage is not an http(s) address</source>
        <translation>ホームページが http(s) のアドレスではありません</translation>
    </message>
    <message>
        <source>The class labels cannot be used</source>
        <translation>クラスラベルを使えません</translation>
    </message>
    <message>
        <source>The license is not an SPDX license expression</source>
        <translation>ライセンスが SPDX のライセンス表記ではありません</translation>
    </message>
    <message>
        <source>The bundle name cannot be used as a file name</source>
        <translation>バンドル名をファイル名として使えません</translation>
    </message>
    <message>
        <source>Not a list of ONNX Runtime releases to prove the model on</source>
        <translation>モデルを検証する ONNX Runtime リリースの指定として正しくありません</translation>
    </message>
    <message>
        <source>SOURCE_DATE_EPOCH is not a non-negative whole number of seconds</source>
        <translation>SOURCE_DATE_EPOCH が 0 以上の整数の秒数ではありません</translation>
    </message>
    <message>
        <source>The target is not an ONNX Runtime version</source>
        <translation>目標が ONNX Runtime のバージョンではありません</translation>
    </message>
    <message>
        <source>The version is not a semantic version</source>
        <translation>バージョンがセマンティック バージョンではありません</translation>
    </message>
    <message>
        <source>The bundle changed while its model was smoke-run</source>
        <translation>モデルのスモーク実行中にバンドルが変更されました</translation>
    </message>
    <message>
        <source>The model has error-level findings, so it is not bundled</source>
        <translation>モデルにエラーの所見があるため、バンドルを作りませんでした</translation>
    </message>
    <message>
        <source>The file is not a bundle: a bundle .zip is expected</source>
        <translation>このファイルはバンドルではありません。バンドルの .zip を指定してください</translation>
    </message>
    <message>
        <source>Cancelled; nothing was written</source>
        <translation>キャンセルしました。何も書き込んでいません</translation>
    </message>
    <message>
        <source>The two models do not have the same inputs</source>
        <translation>2 つのモデルの入力が同じではありません</translation>
    </message>
    <message>
        <source>The second model failed on inputs the first one accepted</source>
        <translation>2 つ目のモデルが、1 つ目のモデルの受け付けた入力で失敗しました</translation>
    </message>
    <message>
        <source>The model has no symbolic dimension of that name</source>
        <translation>モデルにその名前のシンボリック次元はありません</translation>
    </message>
    <message>
        <source>onnxpack could not finish this task</source>
        <translation>onnxpack はこの作業を完了できませんでした</translation>
    </message>
    <message>
        <source>An external data file changed into something other than an ordinary file while in use</source>
        <translation>使用中に外部データファイルが通常のファイル以外のものに変わりました</translation>
    </message>
    <message>
        <source>An external data file got shorter while it was read</source>
        <translation>読み込み中に外部データファイルが短くなりました</translation>
    </message>
    <message>
        <source>An external data file cannot be opened</source>
        <translation>外部データファイルを開けません</translation>
    </message>
    <message>
        <source>The model&apos;s external data cannot be used safely</source>
        <translation>モデルの外部データを安全に使えません</translation>
    </message>
    <message>
        <source>Lowering the IR version cannot make the model load in the target ONNX Runtime</source>
        <translation>IR バージョンを下げても、目標の ONNX Runtime でこのモデルを読み込めるようにはなりません</translation>
    </message>
    <message>
        <source>A file or setting given cannot be used</source>
        <translation>指定したファイルまたは設定は使えません</translation>
    </message>
    <message>
        <source>An input file differs from the one the recorded run used</source>
        <translation>入力ファイルが、記録された実行で使ったものと異なります</translation>
    </message>
    <message>
        <source>The input data has another element type than the model wants</source>
        <translation>入力データの要素型がモデルの求めるものと異なります</translation>
    </message>
    <message>
        <source>The input file is not a tensor onnxpack can read</source>
        <translation>入力ファイルは onnxpack が読めるテンソルではありません</translation>
    </message>
    <message>
        <source>The .npz file has no array for this input</source>
        <translation>.npz ファイルにこの入力の配列がありません</translation>
    </message>
    <message>
        <source>The input file was not found</source>
        <translation>入力ファイルが見つかりません</translation>
    </message>
    <message>
        <source>The input data has another shape than the model wants</source>
        <translation>入力データの形状がモデルの求めるものと異なります</translation>
    </message>
    <message>
        <source>The model has no input of that name</source>
        <translation>モデルにその名前の入力はありません</translation>
    </message>
    <message>
        <source>This input cannot be fed from a file</source>
        <translation>この入力はファイルから与えられません</translation>
    </message>
    <message>
        <source>The input value cannot be used</source>
        <translation>入力の値を使えません</translation>
    </message>
    <message>
        <source>Internal error in onnxpack</source>
        <translation>onnxpack の内部エラーです</translation>
    </message>
    <message>
        <source>Keeping the model&apos;s files as they are contradicts another option</source>
        <translation>モデルのファイルをそのまま同梱する指定が、別のオプションと矛盾しています</translation>
    </message>
    <message>
        <source>The manifest is not valid JSON</source>
        <translation>マニフェストが正しい JSON ではありません</translation>
    </message>
    <message>
        <source>The manifest does not follow the onnxpack manifest schema</source>
        <translation>マニフェストが onnxpack のマニフェストの形式に従っていません</translation>
    </message>
    <message>
        <source>The manifest is larger than a manifest may be</source>
        <translation>マニフェストが許される大きさを超えています</translation>
    </message>
    <message>
        <source>The merged model is not exactly the original model; nothing was written</source>
        <translation>結合したモデルが元のモデルと完全には一致しないため、何も書き込んでいません</translation>
    </message>
    <message>
        <source>Merged into one file, the model would exceed protobuf&apos;s 2 GiB limit</source>
        <translation>1 つのファイルに結合すると、モデルが protobuf の 2 GiB の上限を超えます</translation>
    </message>
    <message>
        <source>The model holds text that is not valid UTF-8</source>
        <translation>モデルに正しい UTF-8 ではないテキストが含まれています</translation>
    </message>
    <message>
        <source>The file is not a readable ONNX or ORT model</source>
        <translation>このファイルは読み込める ONNX または ORT のモデルではありません</translation>
    </message>
    <message>
        <source>The file is a model&apos;s external data (its weights), not the model</source>
        <translation>このファイルはモデルの外部データ（重み）で、モデルそのものではありません</translation>
    </message>
    <message>
        <source>This is an ORT-format model; this task needs the .onnx model</source>
        <translation>これは ORT 形式のモデルです。この作業には .onnx のモデルが必要です</translation>
    </message>
    <message>
        <source>The file is a text file, not a binary ONNX model</source>
        <translation>このファイルはテキストファイルで、バイナリの ONNX モデルではありません</translation>
    </message>
    <message>
        <source>The file is a ZIP archive, not an ONNX model</source>
        <translation>このファイルは ZIP アーカイブで、ONNX モデルではありません</translation>
    </message>
    <message>
        <source>The file is a PyTorch checkpoint, not an ONNX model</source>
        <translation>このファイルは PyTorch のチェックポイントで、ONNX モデルではありません</translation>
    </message>
    <message>
        <source>The model argument is empty</source>
        <translation>モデルの引数が空です</translation>
    </message>
    <message>
        <source>The model file is at or above protobuf&apos;s 2 GiB limit</source>
        <translation>モデルファイルが protobuf の 2 GiB の上限以上です</translation>
    </message>
    <message>
        <source>The model file is truncated, or got shorter while it was read</source>
        <translation>モデルファイルが途中で切れているか、読み込み中に短くなりました</translation>
    </message>
    <message>
        <source>This version cannot be written into model_version</source>
        <translation>このバージョンは model_version に書き込めません</translation>
    </message>
    <message>
        <source>ONNX Runtime&apos;s ORT-format converter failed</source>
        <translation>ONNX Runtime の ORT 形式コンバーターが失敗しました</translation>
    </message>
    <message>
        <source>The ORT-format variant failed its check</source>
        <translation>ORT 形式の版が検査に合格しませんでした</translation>
    </message>
    <message>
        <source>An ORT-format variant needs a model under 2 GiB</source>
        <translation>ORT 形式の版を作るには、モデルが 2 GiB 未満である必要があります</translation>
    </message>
    <message>
        <source>ONNX Runtime cannot load the model</source>
        <translation>ONNX Runtime がモデルを読み込めません</translation>
    </message>
    <message>
        <source>The ORT-format conversion did not finish in time and was stopped</source>
        <translation>ORT 形式への変換が時間内に終わらなかったため、停止しました</translation>
    </message>
    <message>
        <source>The model is too large for the ORT format (2 GiB)</source>
        <translation>モデルが ORT 形式の上限（2 GiB）に対して大きすぎます</translation>
    </message>
    <message>
        <source>The output cannot be written</source>
        <translation>出力を書き込めません</translation>
    </message>
    <message>
        <source>It is unclear what -o names: a folder or a file</source>
        <translation>-o がフォルダーとファイルのどちらを指すのか分かりません</translation>
    </message>
    <message>
        <source>The output name cannot be used for the data file</source>
        <translation>出力の名前をデータファイルに使えません</translation>
    </message>
    <message>
        <source>An output would be written outside the output folder</source>
        <translation>出力が出力フォルダーの外に書き込まれることになります</translation>
    </message>
    <message>
        <source>The output already exists</source>
        <translation>出力はすでに存在します</translation>
    </message>
    <message>
        <source>The output folder lies inside the input folder</source>
        <translation>出力フォルダーが入力フォルダーの中にあります</translation>
    </message>
    <message>
        <source>The output is an existing folder</source>
        <translation>出力は既存のフォルダーです</translation>
    </message>
    <message>
        <source>The output folder is a file</source>
        <translation>出力フォルダーがファイルです</translation>
    </message>
    <message>
        <source>The output is the same file as the input</source>
        <translation>出力が入力と同じファイルです</translation>
    </message>
    <message>
        <source>The output is a symbolic link; onnxpack never writes through a link</source>
        <translation>出力がシンボリックリンクです。onnxpack はリンク越しには書き込みません</translation>
    </message>
    <message>
        <source>The output folder does not exist</source>
        <translation>出力フォルダーが存在しません</translation>
    </message>
    <message>
        <source>Not enough free disk space; nothing partial was left</source>
        <translation>ディスクの空き容量が足りません。書きかけのファイルは残していません</translation>
    </message>
    <message>
        <source>The previous bundle is not a bundle .zip (or the manifest.json from one)</source>
        <translation>前回のバンドルに指定したファイルは、バンドルの .zip（またはその中の manifest.json）ではありません</translation>
    </message>
    <message>
        <source>The environment for an ONNX Runtime release could not be created</source>
        <translation>ONNX Runtime リリース用の環境を作成できませんでした</translation>
    </message>
    <message>
        <source>No inputs could be made to prove the model with</source>
        <translation>モデルを検証するための入力を作れませんでした</translation>
    </message>
    <message>
        <source>The package index with the ONNX Runtime wheels cannot be reached</source>
        <translation>ONNX Runtime のホイールがあるパッケージインデックスに接続できません</translation>
    </message>
    <message>
        <source>Proving on ONNX Runtime releases needs a Python interpreter</source>
        <translation>ONNX Runtime リリースでの検証には Python インタープリターが必要です</translation>
    </message>
    <message>
        <source>That ONNX Runtime release does not exist on the package index</source>
        <translation>その ONNX Runtime リリースはパッケージインデックスにありません</translation>
    </message>
    <message>
        <source>That ONNX Runtime release has no official wheel for this Python and platform</source>
        <translation>その ONNX Runtime リリースには、この Python とプラットフォーム向けの公式ホイールがありません</translation>
    </message>
    <message>
        <source>The bundled model fails on an ONNX Runtime release it was to be proven on</source>
        <translation>バンドルするモデルが、検証対象の ONNX Runtime リリースで動きません</translation>
    </message>
    <message>
        <source>The reference run with the installed ONNX Runtime failed</source>
        <translation>インストール済みの ONNX Runtime による基準の実行に失敗しました</translation>
    </message>
    <message>
        <source>A downloaded ONNX Runtime wheel does not match the official wheel&apos;s hash</source>
        <translation>ダウンロードした ONNX Runtime のホイールが、公式ホイールのハッシュと一致しません</translation>
    </message>
    <message>
        <source>The smoke recipe is not valid</source>
        <translation>スモーク実行の手順が正しくありません</translation>
    </message>
    <message>
        <source>The smoke recipe names a file that is not in the bundle</source>
        <translation>スモーク実行の手順が、バンドルにないファイルを指定しています</translation>
    </message>
    <message>
        <source>onnxpack refused to build the bundle</source>
        <translation>onnxpack はバンドルの作成を拒否しました</translation>
    </message>
    <message>
        <source>An asset given cannot be added beside the model</source>
        <translation>指定されたアセットをモデルの横に追加できません</translation>
    </message>
    <message>
        <source>Two files of the release have names that collide</source>
        <translation>リリース内の 2 つのファイル名が衝突しています</translation>
    </message>
    <message>
        <source>A model of the release references an external-data file that is missing</source>
        <translation>リリース内のモデルが参照する外部データファイルが見つかりません</translation>
    </message>
    <message>
        <source>A model of the release reads external data outside the folder</source>
        <translation>リリース内のモデルがフォルダーの外にある外部データを読み込みます</translation>
    </message>
    <message>
        <source>A label map does not match the model it describes</source>
        <translation>ラベルマップが対応するモデルと一致しません</translation>
    </message>
    <message>
        <source>The release folder holds a link</source>
        <translation>リリースフォルダーにリンクが含まれています</translation>
    </message>
    <message>
        <source>A model of the release failed, so the release was not written</source>
        <translation>リリース内のモデルが失敗したため、リリースは書き出されませんでした</translation>
    </message>
    <message>
        <source>The release folder holds no ONNX model</source>
        <translation>リリースフォルダーに ONNX モデルがありません</translation>
    </message>
    <message>
        <source>A file name of the release cannot be extracted everywhere</source>
        <translation>リリース内のファイル名がすべての環境で展開できるとは限りません</translation>
    </message>
    <message>
        <source>The release folder holds a special file</source>
        <translation>リリースフォルダーに特殊ファイルが含まれています</translation>
    </message>
    <message>
        <source>A file or folder of the release cannot be read</source>
        <translation>リリース内のファイルまたはフォルダーを読み込めません</translation>
    </message>
    <message>
        <source>The model rewritten by the ONNX version converter does not give the same outputs as the original</source>
        <translation>ONNX のバージョンコンバーターで書き換えたモデルの出力が、元のモデルと一致しません</translation>
    </message>
    <message>
        <source>ONNX Runtime failed</source>
        <translation>ONNX Runtime が失敗しました</translation>
    </message>
    <message>
        <source>The signature is not valid, or not of the kind expected</source>
        <translation>署名が有効でないか、想定した種類の署名ではありません</translation>
    </message>
    <message>
        <source>The signature uses a method this onnxpack cannot check</source>
        <translation>この onnxpack では確かめられない方式の署名です</translation>
    </message>
    <message>
        <source>The signing certificate cannot be used</source>
        <translation>署名用の証明書を使えません</translation>
    </message>
    <message>
        <source>The signing key cannot be used</source>
        <translation>署名鍵を使えません</translation>
    </message>
    <message>
        <source>This onnxpack cannot sign or check signatures</source>
        <translation>この onnxpack では署名も署名の確認もできません</translation>
    </message>
    <message>
        <source>Sigstore signing failed</source>
        <translation>Sigstore での署名に失敗しました</translation>
    </message>
    <message>
        <source>Sigstore&apos;s public service cannot be reached</source>
        <translation>Sigstore の公開サービスに接続できません</translation>
    </message>
    <message>
        <source>The smoke run failed unexpectedly</source>
        <translation>スモーク実行が予期せず失敗しました</translation>
    </message>
    <message>
        <source>ONNX Runtime crashed during the smoke run; onnxpack itself is unaffected</source>
        <translation>スモーク実行中に ONNX Runtime がクラッシュしました。onnxpack 自体には影響ありません</translation>
    </message>
    <message>
        <source>The smoke run ran out of memory</source>
        <translation>スモーク実行でメモリーが足りなくなりました</translation>
    </message>
    <message>
        <source>The smoke run did not finish in time and was stopped</source>
        <translation>スモーク実行が時間内に終わらなかったため、停止しました</translation>
    </message>
    <message>
        <source>The tensors that must be embedded make the model exceed 2 GiB</source>
        <translation>埋め込む必要のあるテンソルのために、モデルが 2 GiB を超えます</translation>
    </message>
    <message>
        <source>A source file changed while it was being bundled; the bundle was not written</source>
        <translation>バンドル作成中に元のファイルが変更されたため、バンドルを書き込みませんでした</translation>
    </message>
    <message>
        <source>No ONNX Runtime dependency was found in the app</source>
        <translation>アプリに ONNX Runtime への依存が見つかりません</translation>
    </message>
    <message>
        <source>onnxpack does not know which ONNX Runtime release the app&apos;s ort crate uses</source>
        <translation>アプリの ort クレートがどの ONNX Runtime リリースを使うか、onnxpack は知りません</translation>
    </message>
    <message>
        <source>The app&apos;s file cannot be read for its ONNX Runtime version</source>
        <translation>アプリのファイルから ONNX Runtime のバージョンを読み取れません</translation>
    </message>
    <message>
        <source>These settings cannot be used together, or one is missing</source>
        <translation>これらの設定は一緒に使えないか、足りない設定があります</translation>
    </message>
    <message>
        <source>The version is not greater than the previous release&apos;s</source>
        <translation>バージョンが前のリリースより大きくありません</translation>
    </message>
</context>
<context>
    <name>Findings</name>
    <message>
        <source>about {size}</source>
        <translation>約 {size}</translation>
    </message>
    <message>
        <source>, ai.onnx.ml opset {ml_opset}</source>
        <translation>、ai.onnx.ml opset {ml_opset}</translation>
    </message>
    <message>
        <source>limits measured on that release, not from ORT&apos;s official table</source>
        <translation>ORT の公式表ではなく、そのリリースで測定した上限</translation>
    </message>
    <message>
        <source>ORT&apos;s official table</source>
        <translation>ORT の公式表</translation>
    </message>
    <message>
        <source>The onnx checker crashed on {model} ({detail}); the model is malformed in a way that breaks native code</source>
        <comment>CHECKER_CRASHED</comment>
        <translation>onnx チェッカーが {model} でクラッシュしました ({detail})。ネイティブコードを壊す形でモデルが壊れています</translation>
    </message>
    <message>
        <source>The onnx checker could not run on {model}: {detail}</source>
        <comment>CHECKER_FAILED</comment>
        <translation>onnx チェッカーを {model} で実行できませんでした: {detail}</translation>
    </message>
    <message>
        <source>onnx checker and shape inference skipped: {detail}</source>
        <comment>CHECKER_SKIPPED</comment>
        <translation>onnx チェッカーと形状推論を省略しました: {detail}</translation>
    </message>
    <message>
        <source>The onnx checker did not finish on {model} ({detail})</source>
        <comment>CHECKER_TIMEOUT</comment>
        <translation>onnx チェッカーが {model} で終了しませんでした ({detail})</translation>
    </message>
    <message>
        <source>{detail}</source>
        <comment>CHECKSUMS_MISMATCH</comment>
        <translation>SHA256SUMS がマニフェストと一致しません: {detail}</translation>
    </message>
    <message>
        <source>Output {subject} differs: max abs diff {max_abs}, max rel diff {max_rel}, {mismatched} value(s) outside the tolerance</source>
        <comment>COMPARE_MISMATCH</comment>
        <translation>出力 {subject} が異なります: 最大絶対差 {max_abs}、最大相対差 {max_rel}、許容誤差を超える値 {mismatched} 個</translation>
    </message>
    <message>
        <source>Output {subject} differs: shape {original} vs {other}</source>
        <comment>COMPARE_MISMATCH</comment>
        <translation>出力 {subject} が異なります: 形状 {original} と {other}</translation>
    </message>
    <message>
        <source>Output {subject} differs: dtype {original} vs {other}</source>
        <comment>COMPARE_MISMATCH</comment>
        <translation>出力 {subject} が異なります: データ型 {original} と {other}</translation>
    </message>
    <message>
        <source>Output {subject} differs: NaN/Inf in different places</source>
        <comment>COMPARE_MISMATCH</comment>
        <translation>出力 {subject} が異なります: NaN/Inf の位置が違います</translation>
    </message>
    <message>
        <source>Output {subject} differs: non-tensor outputs differ</source>
        <comment>COMPARE_MISMATCH</comment>
        <translation>出力 {subject} が異なります: テンソルでない出力が一致しません</translation>
    </message>
    <message>
        <source>Output {subject} differs: {mismatched} string(s) differ</source>
        <comment>COMPARE_MISMATCH</comment>
        <translation>出力 {subject} が異なります: 文字列 {mismatched} 個が一致しません</translation>
    </message>
    <message>
        <source>Tensor {label}: {length:,} bytes of external data, but {dtype} {dims} needs {expected:,}</source>
        <comment>EXTDATA_LENGTH_MISMATCH</comment>
        <translation>テンソル {subject}: 外部データの長さが型と形状に合いません</translation>
    </message>
    <message>
        <source>Tensor {label}: bytes {start}..{end} lie beyond the end of {file!r} ({size:,} bytes)</source>
        <comment>EXTDATA_OUT_OF_RANGE</comment>
        <translation>テンソル {subject}: データがファイルの末尾を越えています</translation>
    </message>
    <message>
        <source>Tensor {label}: offset {offset} is beyond the end of {file!r} ({size:,} bytes)</source>
        <comment>EXTDATA_OUT_OF_RANGE</comment>
        <translation>テンソル {label}: オフセット {offset} が「{file}」の末尾（{size:,} バイト）を越えています</translation>
    </message>
    <message>
        <source>And {more} more {kind} findings like those above (the first {listed} are listed)</source>
        <comment>FINDINGS_OMITTED</comment>
        <translation>ほかに同じ種類（{kind}）の問題が {more} 件あります（最初の {listed} 件を表示しています）</translation>
    </message>
    <message>
        <source>{model} has an output {subject} that the original lacks</source>
        <comment>COMPARE_EXTRA_OUTPUT</comment>
        <translation>{model} には元のモデルにない出力 {subject} があります</translation>
    </message>
    <message>
        <source>No model was given: this bundle holds onnxpack&apos;s built-in sample model ({model})</source>
        <comment>BUNDLE_SAMPLE</comment>
        <translation>モデルが指定されていません: このバンドルには onnxpack 組み込みのサンプルモデル ({model}) が入ります</translation>
    </message>
    <message>
        <source>Output {subject} of the original is missing in {model}</source>
        <comment>COMPARE_MISSING_OUTPUT</comment>
        <translation>元のモデルの出力 {subject} が {model} にありません</translation>
    </message>
    <message>
        <source>Output {subject} is within the tolerance ({tol}) but not bitwise identical (max abs diff {max_abs}, max rel diff {max_rel})</source>
        <comment>COMPARE_NOT_BITWISE</comment>
        <translation>出力 {subject} は許容誤差（{tol}）の範囲内ですが、ビット単位では一致しません（最大絶対差 {max_abs}、最大相対差 {max_rel}）</translation>
    </message>
    <message>
        <source>{model} uses ONNX Runtime contrib operators (domain {domain!r}); they ship with standard ORT packages but are not covered by the opset table</source>
        <comment>DOMAIN_CONTRIB</comment>
        <translation>{model} は ONNX Runtime の contrib 演算子 (ドメイン「{domain}」) を使っています。標準の ORT パッケージに含まれますが、opset の表では判定できません</translation>
    </message>
    <message>
        <source>{model} uses operators of the non-standard domain {domain!r}; ONNX Runtime needs a custom-op library registered for them</source>
        <comment>DOMAIN_CUSTOM</comment>
        <translation>{model} は非標準ドメイン「{domain}」の演算子を使っています。ONNX Runtime にはそのカスタム演算子ライブラリの登録が必要です</translation>
    </message>
    <message>
        <source>{model} imports domain {domain!r}, defined by its own model-local functions</source>
        <comment>DOMAIN_LOCAL_FUNCTIONS</comment>
        <translation>{model} はドメイン「{domain}」をインポートしています。モデル内の関数で定義されています</translation>
    </message>
    <message>
        <source>Initializer {name!r} is defined {count} times in {model}; ONNX Runtime only warns and silently uses the last one</source>
        <comment>DUPLICATE_INITIALIZER</comment>
        <translation>初期化子 {subject} が {model} の中で {count} 回定義されています。ONNX Runtime は警告するだけで、黙って最後の定義を使います</translation>
    </message>
    <message>
        <source>Tensor {label}: external data location {file!r} is absolute (or a drive-letter/UNC path); locations must be relative to the model folder</source>
        <comment>EXTDATA_ABSOLUTE</comment>
        <translation>テンソル {subject}: 外部データの場所 &apos;{file}&apos; が絶対パスです。場所はモデルのフォルダーからの相対パスでなければなりません</translation>
    </message>
    <message>
        <source>All {total} external tensors start at 4 KiB-aligned offsets ({aligned64} also at 64 KiB)</source>
        <comment>EXTDATA_ALIGNED</comment>
        <translation>外部テンソル {total} 個すべてが 4 KiB 境界のオフセットから始まります (うち {aligned64} 個は 64 KiB 境界)</translation>
    </message>
    <message>
        <source>Tensor {label} is marked EXTERNAL but also carries inline data</source>
        <comment>EXTDATA_ALSO_INLINE</comment>
        <translation>テンソル {subject} は EXTERNAL と指定されていますが、インラインのデータも持っています</translation>
    </message>
    <message>
        <source>Tensor {label}: checksum {checksum!r} is not a SHA-1 hex digest</source>
        <comment>EXTDATA_BAD_CHECKSUM</comment>
        <translation>テンソル {subject}: checksum が SHA-1 の 16 進ダイジェストではありません</translation>
    </message>
    <message>
        <source>Tensor {label}: external_data &apos;{key}&apos; is {raw!r}, not a non-negative integer</source>
        <comment>EXTDATA_BAD_KEY</comment>
        <translation>テンソル {subject}: external_data の &apos;{key}&apos; が 0 以上の整数ではありません</translation>
    </message>
    <message>
        <source>Tensor {label}: external data location {file!r} {why}</source>
        <comment>EXTDATA_BAD_LOCATION</comment>
        <translation>テンソル {label}: 外部データの場所「{file}」は使えません（{why}）</translation>
    </message>
    <message>
        <source>Tensor {label}: SHA-1 of {file!r} is {sha1}, but the model records {checksum}</source>
        <comment>EXTDATA_CHECKSUM_MISMATCH</comment>
        <translation>テンソル {subject}: &apos;{file}&apos; の SHA-1 がモデルに記録された checksum と一致しません</translation>
    </message>
    <message>
        <source>Tensor {label}: external_data key &apos;{key}&apos; appears twice</source>
        <comment>EXTDATA_DUPLICATE_KEY</comment>
        <translation>テンソル {subject}: external_data のキー &apos;{key}&apos; が 2 回現れます</translation>
    </message>
    <message>
        <source>External data file {file!r} has {links} hard links; it may be a link to a file outside the model folder</source>
        <comment>EXTDATA_HARDLINK</comment>
        <translation>外部データファイル &apos;{file}&apos; にはハードリンクが {links} 個あり、モデルのフォルダーの外にあるファイルへのリンクかもしれません</translation>
    </message>
    <message>
        <source>Tensor {label} has external_data entries but data_location is not EXTERNAL; they are ignored</source>
        <comment>EXTDATA_IGNORED</comment>
        <translation>テンソル {subject} には external_data の項目がありますが、data_location が EXTERNAL ではないため無視されます</translation>
    </message>
    <message>
        <source>External data file {file!r} was not found (looked for {looked_for})</source>
        <comment>EXTDATA_MISSING</comment>
        <translation>外部データファイル「{file}」が見つかりません ({looked_for} を探しました)</translation>
    </message>
    <message>
        <source>External data file {file!r} has a non-folder component {part!r}</source>
        <comment>EXTDATA_MISSING</comment>
        <translation>外部データファイル &apos;{file}&apos; のパスに、フォルダーではない要素があります</translation>
    </message>
    <message>
        <source>External data file {file!r} was not found (looked for {looked_for}), but {found!r} beside it has the size the model needs ({size}): was it renamed from {file!r}?</source>
        <comment>EXTDATA_MISSING</comment>
        <translation>外部データファイル「{file}」が見つかりません ({looked_for} を探しました)。隣の「{found}」はモデルが必要とする大きさ ({size}) です: 「{file}」から名前を変えたものではありませんか?</translation>
    </message>
    <message>
        <source>External data file {file!r} was not found (looked for {looked_for}); data files beside it: {found}. Was one of them renamed from {file!r}?</source>
        <comment>EXTDATA_MISSING</comment>
        <translation>外部データファイル「{file}」が見つかりません ({looked_for} を探しました)。隣にあるデータファイル: {found}。どれかを「{file}」から名前を変えたのではありませんか?</translation>
    </message>
    <message>
        <source>External data file {file!r} is not a regular file (FIFO, device or socket)</source>
        <comment>EXTDATA_NOT_REGULAR</comment>
        <translation>外部データファイル &apos;{file}&apos; は通常のファイルではありません</translation>
    </message>
    <message>
        <source>External data file {file!r} is a folder, not a file</source>
        <comment>EXTDATA_NOT_REGULAR</comment>
        <translation>外部データ ファイル「{file}」はフォルダーで、ファイルではありません</translation>
    </message>
    <message>
        <source>External data file {path} changed into a non-regular or multiply-linked file while in use</source>
        <comment>EXTDATA_NOT_REGULAR</comment>
        <translation>外部データ ファイル {path} が使用中に通常のファイルではなくなったか、複数のリンクを持つようになりました</translation>
    </message>
    <message>
        <source>Tensor {label} is marked EXTERNAL but has no &apos;location&apos; key</source>
        <comment>EXTDATA_NO_LOCATION</comment>
        <translation>テンソル {subject}: 外部データの場所（location）がありません</translation>
    </message>
    <message>
        <source>Tensor {label}: external data location {file!r} is empty</source>
        <comment>EXTDATA_NO_LOCATION</comment>
        <translation>テンソル {label}: 外部データの場所「{file}」が空です</translation>
    </message>
    <message>
        <source>Tensor {label}: external data location {file!r} has a &apos;..&apos; component; it could point outside the model folder</source>
        <comment>EXTDATA_OUTSIDE_DIR</comment>
        <translation>外部データの場所 &apos;{file}&apos; はモデルのフォルダーの外を指しています</translation>
    </message>
    <message>
        <source>External data file {file!r} resolves outside the model folder ({real})</source>
        <comment>EXTDATA_OUTSIDE_DIR</comment>
        <translation>外部データ ファイル「{file}」はモデル フォルダーの外を指しています（{real}）</translation>
    </message>
    <message>
        <source>Tensor {label}: external_data &apos;{key}&apos; is {shown}, beyond any 64-bit file offset</source>
        <comment>EXTDATA_OUT_OF_RANGE</comment>
        <translation>テンソル {label}: external_data の &apos;{key}&apos; が {shown} で、64 ビットのファイル オフセットの範囲を越えています</translation>
    </message>
    <message>
        <source>Tensor {label}: raw_data bytes {start}..{end} lie beyond the end of the model file</source>
        <comment>EXTDATA_OUT_OF_RANGE</comment>
        <translation>テンソル {label}: raw_data のバイト {start}..{end} がモデル ファイルの末尾を越えています</translation>
    </message>
    <message>
        <source>Tensors {other!r} and {tensor!r} share bytes of {file!r}</source>
        <comment>EXTDATA_OVERLAP</comment>
        <translation>テンソル &apos;{other}&apos; と &apos;{subject}&apos; が &apos;{file}&apos; の同じバイトを共有しています</translation>
    </message>
    <message>
        <source>Tensor {label} is a STRING tensor stored as external data, which ONNX does not allow</source>
        <comment>EXTDATA_STRING</comment>
        <translation>テンソル {subject} は外部データに保存された STRING テンソルですが、ONNX はこれを認めていません</translation>
    </message>
    <message>
        <source>External data file {file!r} is or passes through a symbolic link ({path})</source>
        <comment>EXTDATA_SYMLINK</comment>
        <translation>外部データファイル &apos;{file}&apos; はシンボリックリンクであるか、シンボリックリンクを経由しています</translation>
    </message>
    <message>
        <source>{unaligned} of {total} external tensors start at offsets not aligned to 4 KiB (e.g. {tensor!r} at {offset}); ONNX Runtime may then read them into memory instead of memory-mapping them</source>
        <comment>EXTDATA_UNALIGNED</comment>
        <translation>外部テンソル {total} 個のうち {unaligned} 個が 4 KiB 境界に揃っていないオフセットから始まります (例: 「{tensor}」は {offset})。ONNX Runtime はそれらをメモリマップせずにメモリへ読み込むことがあります</translation>
    </message>
    <message>
        <source>Tensor {label}: unknown external_data key &apos;{key}&apos;, which ONNX Runtime refuses</source>
        <comment>EXTDATA_UNKNOWN_KEY</comment>
        <translation>テンソル {subject}: 不明な external_data のキー &apos;{key}&apos;（ONNX Runtime はこのモデルを読み込みません）</translation>
    </message>
    <message>
        <source>External data file {file!r} cannot be examined: {detail}</source>
        <comment>EXTDATA_UNREADABLE</comment>
        <translation>外部データファイル &apos;{file}&apos; を調べられません: {detail}</translation>
    </message>
    <message>
        <source>Cannot open external data file {path}: {detail}</source>
        <comment>EXTDATA_UNREADABLE</comment>
        <translation>外部データ ファイル {path} を開けません: {detail}</translation>
    </message>
    <message>
        <source>{path} is in the archive but not listed in the manifest</source>
        <comment>FILE_EXTRA</comment>
        <translation>{path} はアーカイブにありますが、マニフェストに記載されていません</translation>
    </message>
    <message>
        <source>{path}: SHA-256 is {actual}, the manifest says {listed}</source>
        <comment>FILE_HASH</comment>
        <translation>{path}: SHA-256 は {actual} ですが、マニフェストでは {listed} です</translation>
    </message>
    <message>
        <source>{path} is listed in the manifest but not in the archive</source>
        <comment>FILE_MISSING</comment>
        <translation>{path} はマニフェストに記載されていますが、アーカイブにありません</translation>
    </message>
    <message>
        <source>{path} has {size} bytes; the manifest says {listed}</source>
        <comment>FILE_SIZE</comment>
        <translation>{path} は {size} バイトですが、マニフェストでは {listed} バイトです</translation>
    </message>
    <message>
        <source>ONNX Runtime {version} already loads the model; ir_version left as it is</source>
        <comment>FIX_IR_NOT_NEEDED</comment>
        <translation>ONNX Runtime {version} はすでにこのモデルを読み込めるため、ir_version はそのままにしました</translation>
    </message>
    <message>
        <source>{count} initializers of {model} are read by no node ({names}); ONNX Runtime drops them when it loads the model</source>
        <comment>INITIALIZER_UNUSED</comment>
        <translation>{model} の初期化子のうち {count} 個はどのノードにも読まれていません（{names}）。ONNX Runtime は読み込み時にこれらを取り除きます</translation>
    </message>
    <message>
        <source>Initializer {names} of {model} is read by no node; ONNX Runtime drops it when it loads the model</source>
        <comment>INITIALIZER_UNUSED</comment>
        <translation>{model} の初期化子 {names} はどのノードにも読まれていません。ONNX Runtime は読み込み時にこれを取り除きます</translation>
    </message>
    <message>
        <source>{count} initializers of {model} are read by no node ({names}, … {more} more); ONNX Runtime drops them when it loads the model</source>
        <comment>INITIALIZER_UNUSED</comment>
        <translation>{model} の初期化子 {count} 個はどのノードからも読まれていません（{names}、ほか {more} 個）。ONNX Runtime はモデルの読み込み時にそれらを捨てます</translation>
    </message>
    <message>
        <source>{count} item(s) of IR {ir} that ONNX Runtime {target} does not know and that change nothing the model computes were removed or moved</source>
        <comment>IR_FEATURES_DROPPED</comment>
        <translation>ONNX Runtime {target} が知らない IR {ir} の項目のうち、モデルの計算に影響しない {count} 個を削除または移動しました</translation>
    </message>
    <message>
        <source>{count} item(s) of IR {ir} that ONNX Runtime {target} does not know and that change nothing the model computes were removed or moved; the first {listed} are listed, the other {others} by key: {by_key}</source>
        <comment>IR_FEATURES_DROPPED</comment>
        <translation>ONNX Runtime {target} が知らない IR {ir} の項目のうち、モデルの計算に影響しない {count} 個を削除または移動しました。最初の {listed} 個を一覧にし、残りの {others} 個はキーごとに数えています: {by_key}</translation>
    </message>
    <message>
        <source>{model} uses nothing newer than IR {min_ir}: lowering ir_version from {ir} to {lowered} would let ONNX Runtime {version} (and newer) load it</source>
        <comment>IR_LOWERABLE</comment>
        <translation>{model} は IR {min_ir} より新しい機能を使っていません。ir_version を {ir} から {lowered} に下げると ONNX Runtime {version} 以降で読み込めます</translation>
    </message>
    <message>
        <source>ir_version lowered from {before} to {after} so that ONNX Runtime {target} loads the model</source>
        <comment>IR_LOWERED</comment>
        <translation>ONNX Runtime {target} がモデルを読み込めるよう ir_version を {before} から {after} に下げました</translation>
    </message>
    <message>
        <source>{model} has IR version {ir}; ONNX Runtime needs IR 3 or newer</source>
        <comment>IR_TOO_OLD</comment>
        <translation>{model} の IR バージョンは {ir} です。ONNX Runtime には IR 3 以降が必要です</translation>
    </message>
    <message>
        <source>The manifest lists a path outside the bundle: {path!r} {why}</source>
        <comment>MANIFEST_BAD_PATH</comment>
        <translation>マニフェストがバンドルの外のパスを載せています: {subject}</translation>
    </message>
    <message>
        <source>The manifest lists {path!r} twice</source>
        <comment>MANIFEST_DUPLICATE</comment>
        <translation>マニフェストに {subject} が 2 回載っています</translation>
    </message>
    <message>
        <source>The manifest points to {path!r} as {role}, but lists no such file</source>
        <comment>MANIFEST_INCONSISTENT</comment>
        <translation>マニフェストの内容が矛盾しています</translation>
    </message>
    <message>
        <source>The manifest says &apos;external&apos; layout but names no data file</source>
        <comment>MANIFEST_INCONSISTENT</comment>
        <translation>マニフェストはレイアウトを &apos;external&apos; としていますが、データ ファイルを挙げていません</translation>
    </message>
    <message>
        <source>The manifest&apos;s model entry {entry!r} is not an .onnx file</source>
        <comment>MANIFEST_INCONSISTENT</comment>
        <translation>マニフェストのモデル項目「{entry}」は .onnx ファイルではありません</translation>
    </message>
    <message>
        <source>The manifest lists {count} files as models ({models}), not one per model it describes</source>
        <comment>MANIFEST_INCONSISTENT</comment>
        <translation>マニフェストはモデルとして {count} 個のファイル ({models}) を記載しており、記述しているモデルと 1 対 1 に対応していません</translation>
    </message>
    <message>
        <source>The manifest&apos;s prove_ort section contradicts itself: {detail}</source>
        <comment>MANIFEST_INCONSISTENT</comment>
        <translation>マニフェストの prove_ort の内容が矛盾しています: {detail}</translation>
    </message>
    <message>
        <source>{file} is not valid strict JSON: {reason}</source>
        <comment>MANIFEST_JSON</comment>
        <translation>manifest.json は正しい JSON ではありません</translation>
    </message>
    <message>
        <source>{detail}</source>
        <comment>MANIFEST_JSON</comment>
        <translation>マニフェストの JSON を読めません: {detail}</translation>
    </message>
    <message>
        <source>The archive has no manifest.json</source>
        <comment>MANIFEST_MISSING</comment>
        <translation>アーカイブに manifest.json がありません</translation>
    </message>
    <message>
        <source>{file} does not match the manifest schema: {problems}</source>
        <comment>MANIFEST_SCHEMA</comment>
        <translation>manifest.json が onnxpack のマニフェストの形式に従っていません</translation>
    </message>
    <message>
        <source>{file} is not an onnxpack manifest (schema {found!r}, expected {expected!r})</source>
        <comment>MANIFEST_SCHEMA</comment>
        <translation>{file} は onnxpack のマニフェストではありません（スキーマ「{found}」、期待値「{expected}」）</translation>
    </message>
    <message>
        <source>{file} has schema {found!r}, expected {expected!r}</source>
        <comment>MANIFEST_SCHEMA</comment>
        <translation>{file} のスキーマは「{found}」です（期待値「{expected}」）</translation>
    </message>
    <message>
        <source>{file}: {problem}</source>
        <comment>MANIFEST_SCHEMA</comment>
        <translation>{file}: スキーマ違反: {problem}</translation>
    </message>
    <message>
        <source>{file}: {more} more violations</source>
        <comment>MANIFEST_SCHEMA</comment>
        <translation>{file}: ほかに {more} 件の違反があります</translation>
    </message>
    <message>
        <source>The manifest lists itself ({path!r})</source>
        <comment>MANIFEST_SELF</comment>
        <translation>マニフェストが自分自身を一覧に載せています</translation>
    </message>
    <message>
        <source>{file} is {size} bytes, more than the {limit} a manifest may have</source>
        <comment>MANIFEST_TOO_LARGE</comment>
        <translation>manifest.json がマニフェストとして許される大きさを超えています</translation>
    </message>
    <message>
        <source>{file} declares {size} bytes (cap {limit})</source>
        <comment>MANIFEST_TOO_LARGE</comment>
        <translation>{file} は {size} バイトと宣言しています（上限 {limit}）</translation>
    </message>
    <message>
        <source>Merged into one file, {model} would be {readable} ({bytes:,} bytes), under the 2 GiB protobuf limit</source>
        <comment>MERGE_FITS</comment>
        <translation>1 つのファイルにまとめると {model} は {size} で、protobuf の 2 GiB 上限を下回ります</translation>
    </message>
    <message>
        <source>Merged into one file, {model} would be about {readable} ({bytes:,} bytes), under the 2 GiB protobuf limit</source>
        <comment>MERGE_FITS</comment>
        <translation>1 つのファイルにまとめると {model} は {size} になり、protobuf の 2 GiB 上限を下回ります</translation>
    </message>
    <message>
        <source>Merged into one file, {model} would be {readable} ({bytes:,} bytes), above protobuf&apos;s 2 GiB limit; it must keep external data</source>
        <comment>MERGE_TOO_LARGE</comment>
        <translation>1 つのファイルにまとめると {model} は {size} で、protobuf の 2 GiB 上限を超えます。外部データのままにする必要があります</translation>
    </message>
    <message>
        <source>Merged into one file, {model} would be about {readable} ({bytes:,} bytes), above protobuf&apos;s 2 GiB limit; it must keep external data</source>
        <comment>MERGE_TOO_LARGE</comment>
        <translation>1 つのファイルにまとめると {model} は {size} になり、protobuf の 2 GiB 上限を超えます。外部データのままにする必要があります</translation>
    </message>
    <message>
        <source>model_version set to {after} (MAJOR*1000000 + MINOR*1000 + PATCH of {version})</source>
        <comment>MODEL_VERSION_SET</comment>
        <translation>model_version を {after} に設定しました ({version} の MAJOR*1000000 + MINOR*1000 + PATCH)</translation>
    </message>
    <message>
        <source>model_version {model_version} cannot carry the pre-release/build part of {version}</source>
        <comment>MODEL_VERSION_TAGS</comment>
        <translation>model_version {model_version} には {version} のプレリリース／ビルドの部分を入れられません</translation>
    </message>
    <message>
        <source>onnx checker rejects {model}: {detail}</source>
        <comment>ONNX_CHECKER</comment>
        <translation>onnx チェッカーが {model} を拒否しました: {detail}</translation>
    </message>
    <message>
        <source>{model} imports operator set {domain!r} twice (versions {first} and {second})</source>
        <comment>OPSET_DUPLICATE</comment>
        <translation>{model} は演算子セット &apos;{subject}&apos; を 2 回インポートしています（バージョン {first} と {second}）</translation>
    </message>
    <message>
        <source>opsets lowered for ONNX Runtime {target}: every operator has the same schema version at the lower opset, so only opset_import was rewritten</source>
        <comment>OPSET_LOWERED</comment>
        <translation>ONNX Runtime {target} 向けに opset を下げました: 低い opset でもすべての演算子のスキーマ バージョンが同じなので、opset_import だけを書き換えました</translation>
    </message>
    <message>
        <source>opsets lowered for ONNX Runtime {target}: onnx.version_converter rewrote the operators that changed</source>
        <comment>OPSET_LOWERED</comment>
        <translation>ONNX Runtime {target} 向けに opset を下げました: 変わった演算子は onnx.version_converter が書き換えました</translation>
    </message>
    <message>
        <source>{model} uses operators of domain {domain!r} but does not import that operator set</source>
        <comment>OPSET_MISSING</comment>
        <translation>{model} はドメイン「{domain}」の演算子を使っていますが、その演算子セットをインポートしていません</translation>
    </message>
    <message>
        <source>{model} uses {detail}</source>
        <comment>OPSET_TOO_OLD</comment>
        <translation>{model} の演算子セットが古すぎます: {detail}</translation>
    </message>
    <message>
        <source>{model} is an ORT-format model (FlatBuffer); only what an ONNX Runtime session reports is available (no IR/opsets, no checker)</source>
        <comment>ORT_FORMAT</comment>
        <translation>{subject} は ORT 形式（FlatBuffer）のモデルです。ONNX Runtime のセッションが報告する情報しか得られません（IR・オペセット・チェッカーはありません）</translation>
    </message>
    <message>
        <source>ONNX Runtime could not load the ORT-format model {model}: {detail}</source>
        <comment>ORT_LOAD_FAILED</comment>
        <translation>ONNX Runtime は ORT 形式のモデル {subject} を読み込めませんでした: {detail}</translation>
    </message>
    <message>
        <source>{model} needs more than ONNX Runtime {version}, the newest release onnxpack knows: {detail}</source>
        <comment>ORT_NEWER_THAN_KNOWN</comment>
        <translation>{model} には、onnxpack が知る最新のリリースである ONNX Runtime {version} より新しいものが必要です: {detail}</translation>
    </message>
    <message>
        <source>Oldest ONNX Runtime that loads {model}: {version} (ORT {version} reads models up to IR {ir}, ai.onnx opset {opset}; ORT&apos;s official table)</source>
        <comment>ORT_OLDEST</comment>
        <translation>{model} を読み込める最も古い ONNX Runtime: {version} (ORT {version} が読めるのは IR {ir}、ai.onnx opset {opset}{ml} までのモデル、{source})</translation>
    </message>
    <message>
        <source>Oldest ONNX Runtime that loads {model}: {version} (ORT {version} reads models up to IR {ir}, ai.onnx opset {opset}, ai.onnx.ml opset {ml_opset}; ORT&apos;s official table)</source>
        <comment>ORT_OLDEST</comment>
        <translation>{model} を読み込める最も古い ONNX Runtime: {version}（ORT {version} が読めるのは IR {ir}、ai.onnx opset {opset}、ai.onnx.ml opset {ml_opset} まで。ORT の公式表による）</translation>
    </message>
    <message>
        <source>Oldest ONNX Runtime that loads {model}: {version} (ORT {version} reads models up to IR {ir}, ai.onnx opset {opset}; limits measured on that release, not from ORT&apos;s official table)</source>
        <comment>ORT_OLDEST</comment>
        <translation>{model} を読み込める最も古い ONNX Runtime: {version}（ORT {version} が読めるのは IR {ir}、ai.onnx opset {opset} まで。ORT の公式表ではなく、そのリリースで測定した上限）</translation>
    </message>
    <message>
        <source>Oldest ONNX Runtime that loads {model}: {version} (ORT {version} reads models up to IR {ir}, ai.onnx opset {opset}, ai.onnx.ml opset {ml_opset}; limits measured on that release, not from ORT&apos;s official table)</source>
        <comment>ORT_OLDEST</comment>
        <translation>{model} を読み込める最も古い ONNX Runtime: {version}（ORT {version} が読めるのは IR {ir}、ai.onnx opset {opset}、ai.onnx.ml opset {ml_opset} まで。ORT の公式表ではなく、そのリリースで測定した上限）</translation>
    </message>
    <message>
        <source>Target: ONNX Runtime {version} loads the model; {detail}</source>
        <comment>ORT_TARGET_OK</comment>
        <translation>目標: ONNX Runtime {version} はこのモデルを読み込めます（{detail}）</translation>
    </message>
    <message>
        <source>{detail}</source>
        <comment>ORT_TARGET_UNKNOWN</comment>
        <translation>目標: ONNX Runtime {version} がこのモデルを読み込めるかどうかは不明です（{detail}）</translation>
    </message>
    <message>
        <source>{model} is an ORT-format model; its IR/opsets cannot be read, so compatibility with ONNX Runtime {version} is unknown</source>
        <comment>ORT_TARGET_UNKNOWN</comment>
        <translation>{model} は ORT 形式のモデルで IR やオペセットを読めないため、ONNX Runtime {version} との互換性は不明です</translation>
    </message>
    <message>
        <source>Target: {detail}</source>
        <comment>ORT_TARGET_UNSUPPORTED</comment>
        <translation>目標: ONNX Runtime {version} はこのモデルを読み込めません（{detail}）</translation>
    </message>
    <message>
        <source>ONNX Runtime {version} runs {model} but its outputs differ from ONNX Runtime {reference}&apos;s beyond atol {atol} / rtol {rtol} (largest difference {difference})</source>
        <comment>PROVE_ORT_MISMATCH</comment>
        <translation>ONNX Runtime {version} で {model} は動きますが、出力が ONNX Runtime {reference} の出力と許容範囲を超えて異なります（最大の差 {difference}）</translation>
    </message>
    <message>
        <source>ONNX Runtime {version} (its official wheel) cannot run {model}: {detail}</source>
        <comment>PROVE_ORT_NOT_LOADED</comment>
        <translation>ONNX Runtime {version}（公式ホイール）では {model} を実行できません: {detail}</translation>
    </message>
    <message>
        <source>ONNX Runtime {version} (its official wheel) runs {model}: bitwise-equal outputs with ONNX Runtime {reference}</source>
        <comment>PROVE_ORT_OK</comment>
        <translation>ONNX Runtime {version}（公式ホイール）で {model} が動きました: ONNX Runtime {reference} とビット単位で同じ出力です</translation>
    </message>
    <message>
        <source>ONNX Runtime {version} (its official wheel) runs {model}: outputs within tolerance (largest difference {difference}) with ONNX Runtime {reference}</source>
        <comment>PROVE_ORT_OK</comment>
        <translation>ONNX Runtime {version}（公式ホイール）で {model} が動きました: ONNX Runtime {reference} との比較で出力は許容誤差の範囲内です（最大の差 {difference}）</translation>
    </message>
    <message>
        <source>{asset} names {count} classes, but no output of {model} has {count} (last dimensions: {outputs})</source>
        <comment>RELEASE_LABELS</comment>
        <translation>{asset} は {count} クラスを定義していますが、{model} の出力に {count} クラスのものはありません（最後の次元: {outputs}）</translation>
    </message>
    <message>
        <source>Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: max abs diff {max_abs}, max rel diff {max_rel}</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {name} が記録された実行と atol={atol}、rtol={rtol} を超えて異なります: 最大絶対差 {max_abs}、最大相対差 {max_rel}</translation>
    </message>
    <message>
        <source>Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: shape {original} vs {other}</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {name} が記録された実行と atol={atol}、rtol={rtol} を超えて異なります: 形状 {original} と {other}</translation>
    </message>
    <message>
        <source>Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: dtype {original} vs {other}</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {name} が記録された実行と atol={atol}、rtol={rtol} を超えて異なります: データ型 {original} と {other}</translation>
    </message>
    <message>
        <source>Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: NaN/Inf in different places</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {name} が記録された実行と atol={atol}、rtol={rtol} を超えて異なります: NaN/Inf の位置が違います</translation>
    </message>
    <message>
        <source>Output {name} differs from the recorded run beyond atol={atol}, rtol={rtol}: {mismatched} string(s) differ</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {name} が記録された実行と atol={atol}、rtol={rtol} を超えて異なります: 文字列 {mismatched} 個が一致しません</translation>
    </message>
    <message>
        <source>{path} looks like external data, but no model of the release references it; it is left out</source>
        <comment>RELEASE_DATA_UNREFERENCED</comment>
        <translation>{path} は外部データのようですが、リリース内のどのモデルからも参照されていないため除外しました</translation>
    </message>
    <message>
        <source>{path} has {size:,} bytes, more than a bundle&apos;s SHA256SUMS can need ({limit:,}); it was not read</source>
        <comment>CHECKSUMS_MISMATCH</comment>
        <translation>{path} は {size:,} バイトあり、バンドルの SHA256SUMS に必要な大きさ（{limit:,}）を超えています。読み込みませんでした</translation>
    </message>
    <message>
        <source>External data file {path} got shorter while reading tensor {tensor!r}</source>
        <comment>EXTDATA_OUT_OF_RANGE</comment>
        <translation>外部データ ファイル {path} がテンソル {tensor!r} を読んでいる間に短くなりました</translation>
    </message>
    <message>
        <source>External data file {path} got shorter while reading it</source>
        <comment>EXTDATA_OUT_OF_RANGE</comment>
        <translation>外部データ ファイル {path} を読んでいる間にファイルが短くなりました</translation>
    </message>
    <message>
        <source>{subject}: the shipped single file costs the end user {time_ratio}x the load time and {memory_ratio}x the memory of the source&apos;s external-data layout ({shipped_s} s and {shipped_mem} against {source_s} s and {source_mem}, what each load adds to its process; InferenceSession(path), ONNX Runtime {ort_version})</source>
        <comment>LOAD_COST_HEAVY</comment>
        <translation>{subject}: 同梱した単一ファイルの読み込みは、元の外部データ形式と比べて利用者に {time_ratio} 倍の時間と {memory_ratio} 倍のメモリーを要します（{shipped_s} 秒・{shipped_mem} 対 {source_s} 秒・{source_mem}。メモリーは読み込みがプロセスに加える量。InferenceSession(path)、ONNX Runtime {ort_version}）</translation>
    </message>
    <message>
        <source>The manifest&apos;s prove_ort section records a failed proof (failed: {releases}); onnxpack does not build such a bundle</source>
        <comment>MANIFEST_INCONSISTENT</comment>
        <translation>マニフェストの prove_ort は失敗した検証を記録しています（失敗: {releases}）。onnxpack はこのようなバンドルを作りません</translation>
    </message>
    <message>
        <source>The manifest&apos;s prove_ort section records a failed proof (ok false); onnxpack does not build such a bundle</source>
        <comment>MANIFEST_INCONSISTENT</comment>
        <translation>マニフェストの prove_ort は失敗した検証を記録しています（ok が false）。onnxpack はこのようなバンドルを作りません</translation>
    </message>
    <message>
        <source>{file} does not match the manifest schema: {problems} (and {more} more)</source>
        <comment>MANIFEST_SCHEMA</comment>
        <translation>{file} が onnxpack のマニフェストの形式に従っていません: {problems}（ほか {more} 件）</translation>
    </message>
    <message>
        <source>The merged single-file model would be {bytes:,} bytes, at or above protobuf&apos;s 2 GiB limit ({limit:,} bytes)</source>
        <comment>MERGE_TOO_LARGE</comment>
        <translation>マージした単一ファイルのモデルは {bytes:,} バイトになり、protobuf の 2 GiB 上限（{limit:,} バイト）以上です</translation>
    </message>
    <message>
        <source>The model structure (without the consolidated data) would be {bytes:,} bytes, at or above protobuf&apos;s 2 GiB limit ({limit:,} bytes)</source>
        <comment>MERGE_TOO_LARGE</comment>
        <translation>モデルの構造（まとめたデータを除く）は {bytes:,} バイトになり、protobuf の 2 GiB 上限（{limit:,} バイト）以上です</translation>
    </message>
    <message>
        <source>Tensor {tensor} embedded would be {bytes:,} bytes, at or above protobuf&apos;s 2 GiB limit ({limit:,} bytes)</source>
        <comment>MERGE_TOO_LARGE</comment>
        <translation>テンソル {tensor} を埋め込むと {bytes:,} バイトになり、protobuf の 2 GiB 上限（{limit:,} バイト）以上です</translation>
    </message>
    <message>
        <source>ONNX Runtime {version} (the one this frozen onnxpack carries) runs {model}: bitwise-equal outputs with ONNX Runtime {reference}</source>
        <comment>PROVE_ORT_OK</comment>
        <translation>ONNX Runtime {version}（この凍結版 onnxpack が同梱しているもの）で {model} が動きました: ONNX Runtime {reference} とビット単位で同じ出力です</translation>
    </message>
    <message>
        <source>ONNX Runtime {version} (the one this frozen onnxpack carries) runs {model}: outputs within tolerance (largest difference {difference}) with ONNX Runtime {reference}</source>
        <comment>PROVE_ORT_OK</comment>
        <translation>ONNX Runtime {version}（この凍結版 onnxpack が同梱しているもの）で {model} が動きました: ONNX Runtime {reference} との比較で出力は許容誤差の範囲内です（最大の差 {difference}）</translation>
    </message>
    <message>
        <source>{asset} is not a label map onnxpack can read: {reason}</source>
        <comment>RELEASE_LABELS</comment>
        <translation>{asset} は onnxpack が読めるラベルマップではありません: {reason}</translation>
    </message>
    <message>
        <source>{asset}: {count} classes, as {model}&apos;s output {output} has</source>
        <comment>RELEASE_LABELS_OK</comment>
        <translation>{asset}: {count} クラス ({model} の出力 {output} と一致)</translation>
    </message>
    <message>
        <source>The previous release is named {previous!r}, this one {name!r}</source>
        <comment>RELEASE_NAME_CHANGED</comment>
        <translation>前のリリースの名前は &apos;{previous}&apos;、今回は &apos;{name}&apos; です</translation>
    </message>
    <message>
        <source>{count} files left out of the release ({examples})</source>
        <comment>RELEASE_SKIPPED</comment>
        <translation>{count} 個のファイルをリリースから除外しました ({examples})</translation>
    </message>
    <message>
        <source>Shape inference fails on {model}: {detail}</source>
        <comment>SHAPE_INFERENCE</comment>
        <translation>{model} の形状推論に失敗しました: {detail}</translation>
    </message>
    <message>
        <source>Shape inference of {model} stopped where it needed the values of a large or external tensor: {detail}</source>
        <comment>SHAPE_INFERENCE_PARTIAL</comment>
        <translation>{model} の形状推論は、大きなテンソルまたは外部テンソルの値が必要な箇所で止まりました: {detail}</translation>
    </message>
    <message>
        <source>The signature does not verify with this public key ({error})</source>
        <comment>SIGNATURE_INVALID</comment>
        <translation>model.sig は有効な署名でないか、想定した種類の署名ではありません</translation>
    </message>
    <message>
        <source>The signature does not verify with these trusted certificates ({error})</source>
        <comment>SIGNATURE_INVALID</comment>
        <translation>信頼する証明書ではこの署名を検証できません（{error}）</translation>
    </message>
    <message>
        <source>{file} is {size} bytes (cap {cap})</source>
        <comment>SIGNATURE_INVALID</comment>
        <translation>{file} は {size} バイトです（上限 {cap}）</translation>
    </message>
    <message>
        <source>{file} is not a model-signing signature ({error})</source>
        <comment>SIGNATURE_INVALID</comment>
        <translation>{file} は model-signing の署名ではありません（{error}）</translation>
    </message>
    <message>
        <source>{file} is signed with a certificate, not a bare key</source>
        <comment>SIGNATURE_INVALID</comment>
        <translation>{file} は素の鍵ではなく証明書で署名されています</translation>
    </message>
    <message>
        <source>{file} is signed with a bare key, not a certificate</source>
        <comment>SIGNATURE_INVALID</comment>
        <translation>{file} は証明書ではなく素の鍵で署名されています</translation>
    </message>
    <message>
        <source>The Sigstore signature does not verify for {identity} ({issuer}): {error}</source>
        <comment>SIGNATURE_INVALID</comment>
        <translation>Sigstore の署名を {identity}（{issuer}）について検証できません: {error}</translation>
    </message>
    <message>
        <source>{file} declares {size} bytes (cap {cap})</source>
        <comment>SIGNATURE_INVALID</comment>
        <translation>{file} は {size} バイトと宣言しています（上限 {cap}）</translation>
    </message>
    <message>
        <source>The manifest names another signing key than the one that signed the bundle</source>
        <comment>SIGNATURE_KEY</comment>
        <translation>マニフェストに書かれた署名鍵が、バンドルに署名した鍵と異なります</translation>
    </message>
    <message>
        <source>{path} is not covered by the signature (added after signing)</source>
        <comment>SIGNATURE_MISMATCH</comment>
        <translation>{path} は署名の対象外です (署名後に追加されました)</translation>
    </message>
    <message>
        <source>{path} is not the file that was signed (SHA-256 {actual}, signed {signed})</source>
        <comment>SIGNATURE_MISMATCH</comment>
        <translation>{path} は署名されたファイルではありません (SHA-256 {actual}、署名時 {signed})</translation>
    </message>
    <message>
        <source>{path} was signed but is missing from the archive</source>
        <comment>SIGNATURE_MISMATCH</comment>
        <translation>{path} は署名されていますが、アーカイブにありません</translation>
    </message>
    <message>
        <source>The bundle has no model.sig, so it is not signed (or its signature was removed)</source>
        <comment>SIGNATURE_MISSING</comment>
        <translation>バンドルに model.sig がないため、署名されていません (または署名が削除されました)</translation>
    </message>
    <message>
        <source>The manifest says the bundle is signed, but model.sig is missing: the signature was removed</source>
        <comment>SIGNATURE_MISSING</comment>
        <translation>マニフェストには署名済みとありますが、model.sig がありません。署名が削除されています</translation>
    </message>
    <message>
        <source>{warning}</source>
        <comment>SIGNING_KEY_READABLE</comment>
        <translation>このコンピューターのほかのユーザーが署名用の秘密鍵を読めます</translation>
    </message>
    <message>
        <source>{model}: output {subject} is constant everywhere ({value})</source>
        <comment>SMOKE_CONSTANT_OUTPUT</comment>
        <translation>{model}: 出力 {subject} はすべて同じ値（{value}）です</translation>
    </message>
    <message>
        <source>{model}: output {subject} is constant everywhere (not a finite number)</source>
        <comment>SMOKE_CONSTANT_OUTPUT</comment>
        <translation>{model}: 出力 {subject} はすべて同じ値（有限の数ではない値）です</translation>
    </message>
    <message>
        <source>{subject}: the run failed with the default sizes ({error}); it passed with {sizes} after {attempts} attempt(s)</source>
        <comment>SMOKE_DIMS_SEARCHED</comment>
        <translation>{subject}: 既定の大きさでは実行に失敗しましたが、{sizes} で成功しました (試行 {attempts} 回)</translation>
    </message>
    <message>
        <source>{detail}</source>
        <comment>SMOKE_FAILED</comment>
        <translation>スモーク実行に失敗しました: {detail}</translation>
    </message>
    <message>
        <source>The smoke run failed</source>
        <comment>SMOKE_FAILED</comment>
        <translation>スモーク実行が失敗しました</translation>
    </message>
    <message>
        <source>The recorded smoke recipe cannot be repeated: {detail}</source>
        <comment>SMOKE_FAILED</comment>
        <translation>記録されたスモーク実行の手順を再現できません: {detail}</translation>
    </message>
    <message>
        <source>The recorded smoke run failed now: {detail}</source>
        <comment>SMOKE_FAILED</comment>
        <translation>記録されたスモーク実行が今回は失敗しました: {detail}</translation>
    </message>
    <message>
        <source>The recorded smoke run failed now</source>
        <comment>SMOKE_FAILED</comment>
        <translation>記録されたスモーク実行が今回は失敗しました</translation>
    </message>
    <message>
        <source>{model}: input {subject} has a default value (an initializer of the same name); the default was used</source>
        <comment>SMOKE_INPUT_DEFAULT</comment>
        <translation>{model}: 入力 {subject} には既定値（同じ名前の初期化子）があり、その既定値を使いました</translation>
    </message>
    <message>
        <source>{model}: optional input {subject} was not fed</source>
        <comment>SMOKE_INPUT_OMITTED</comment>
        <translation>{model}: 省略可能な入力 {subject} には何も与えませんでした</translation>
    </message>
    <message>
        <source>{subject}: the generated inputs would take {size}, more than the {limit} onnxpack allows on this machine ({detail})</source>
        <comment>SMOKE_INPUT_TOO_LARGE</comment>
        <translation>{subject}: 生成する入力は {size} になり、このマシンで onnxpack が許す {limit} を超えます（{detail}）</translation>
    </message>
    <message>
        <source>{subject}: cannot build inputs: {detail}</source>
        <comment>SMOKE_INPUT_UNSUPPORTED</comment>
        <translation>{subject}: 入力を作れません: {detail}</translation>
    </message>
    <message>
        <source>{model} loads and gives the reference outputs bit for bit: {modes}</source>
        <comment>SMOKE_LOADS_OK</comment>
        <translation>{model} は読み込めて、基準の出力とビット単位で一致します: {modes}</translation>
    </message>
    <message>
        <source>{model} does not load ({mode}): {error}</source>
        <comment>SMOKE_LOAD_FAILED</comment>
        <translation>{model} を読み込めません ({mode}): {error}</translation>
    </message>
    <message>
        <source>{model} does not load by its path: {error}</source>
        <comment>SMOKE_LOAD_FAILED</comment>
        <translation>{model} をパスから読み込めません: {error}</translation>
    </message>
    <message>
        <source>{model} does not load by a relative path from another working directory: {error}</source>
        <comment>SMOKE_LOAD_FAILED</comment>
        <translation>{model} を別の作業ディレクトリから相対パスで読み込めません: {error}</translation>
    </message>
    <message>
        <source>{model} does not load from bytes: {error}</source>
        <comment>SMOKE_LOAD_FAILED</comment>
        <translation>{model} をバイト列から読み込めません: {error}</translation>
    </message>
    <message>
        <source>{model} does not load from bytes with its folder named in the session options: {error}</source>
        <comment>SMOKE_LOAD_FAILED</comment>
        <translation>セッションオプションでフォルダーを指定しても、{model} をバイト列から読み込めません: {error}</translation>
    </message>
    <message>
        <source>{model} does not load through a symbolic link: {error}</source>
        <comment>SMOKE_LOAD_FAILED</comment>
        <translation>{model} をシンボリックリンク経由で読み込めません: {error}</translation>
    </message>
    <message>
        <source>{model} does not load from a folder named with Japanese characters and a space: {error}</source>
        <comment>SMOKE_LOAD_FAILED</comment>
        <translation>日本語と空白を含む名前のフォルダーから {model} を読み込めません: {error}</translation>
    </message>
    <message>
        <source>{model} loaded another way ({mode}) gives outputs that differ from the reference run&apos;s</source>
        <comment>SMOKE_LOAD_FAILED</comment>
        <translation>別の方法 ({mode}) で読み込んだ {model} の出力が基準の実行と異なります</translation>
    </message>
    <message>
        <source>{model} cannot be loaded from bytes alone: its weights are in a data file, which ONNX Runtime then looks for in the working directory</source>
        <comment>SMOKE_LOAD_FROM_BYTES</comment>
        <translation>{model} はバイト列だけでは読み込めません: 重みがデータファイルにあり、その場合 ONNX Runtime は作業ディレクトリでそれを探します</translation>
    </message>
    <message>
        <source>Output {name} differs from the recorded run (same ONNX Runtime {ort_version}): SHA-256 {sha256} vs {recorded}</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {subject} が記録された実行結果と異なります</translation>
    </message>
    <message>
        <source>Output {name} is missing from the re-run</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {name} が再実行の結果にありません</translation>
    </message>
    <message>
        <source>Output {name} differs from the recorded run (another ONNX Runtime version) and the bundle holds no reference values to compare within a tolerance</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {name} が記録された実行（別の ONNX Runtime バージョン）と異なり、バンドルには許容誤差で比べるための参照値がありません</translation>
    </message>
    <message>
        <source>Output {name}: reference values unreadable ({detail})</source>
        <comment>SMOKE_MISMATCH</comment>
        <translation>出力 {name}: 参照値を読めません（{detail}）</translation>
    </message>
    <message>
        <source>{model}: output {subject} differs between runs on the same inputs</source>
        <comment>SMOKE_NONDETERMINISTIC</comment>
        <translation>{model}: 出力 {subject} が、同じ入力でも実行のたびに異なります</translation>
    </message>
    <message>
        <source>{model}: output {subject} has {nan} NaN and {inf} Inf value(s) out of {size}</source>
        <comment>SMOKE_NON_FINITE</comment>
        <translation>{model}: 出力 {subject} に有限でない値があります (NaN: {nan} 個、Inf: {inf} 個、要素数 {size})</translation>
    </message>
    <message>
        <source>The bundle records no smoke run (built with {opt:no_smoke}); ran with default inputs, nothing to compare with</source>
        <comment>SMOKE_NOT_RECORDED</comment>
        <translation>バンドルにスモーク実行の記録がありません。既定の入力で実行しましたが、比べる対象がありません</translation>
    </message>
    <message>
        <source>{model}: output {subject} is a {type}, not a tensor: only its SHA-256 is recorded (no .npy is saved, and a bundle holds no reference values for it), and onnxruntime-node (JavaScript) cannot return such an output</source>
        <comment>SMOKE_OUTPUT_NOT_TENSOR</comment>
        <translation>{model}: 出力 {subject} はテンソルではなく {type} です。記録されるのは SHA-256 だけで（.npy は保存されず、バンドルにも参照値は入りません）、onnxruntime-node（JavaScript）はこのような出力を返せません</translation>
    </message>
    <message>
        <source>{subject}: ONNX Runtime rejected the run: {detail}</source>
        <comment>SMOKE_RUN_FAILED</comment>
        <translation>{subject}: ONNX Runtime が実行を拒否しました: {detail}。</translation>
    </message>
    <message>
        <source>{subject}: ONNX Runtime rejected the run: {detail} Generated inputs: {inputs}.</source>
        <comment>SMOKE_RUN_FAILED</comment>
        <translation>{subject}: ONNX Runtime が実行を拒否しました: {detail}。生成した入力: {inputs}。</translation>
    </message>
    <message>
        <source>{subject}: ONNX Runtime rejected the run: {detail} Dims not given: {dims}.</source>
        <comment>SMOKE_RUN_FAILED</comment>
        <translation>{subject}: ONNX Runtime が実行を拒否しました: {detail}。指定のない次元: {dims}。</translation>
    </message>
    <message>
        <source>{subject}: ONNX Runtime rejected the run: {detail} The automatic search tried {attempts} more size(s) ({tried}) without success.</source>
        <comment>SMOKE_RUN_FAILED</comment>
        <translation>{subject}: ONNX Runtime が実行を拒否しました: {detail}。自動探索でさらに {attempts} 通りの大きさ ({tried}) を試しましたが成功しませんでした。</translation>
    </message>
    <message>
        <source>{subject}: ONNX Runtime rejected the run: {detail} Generated inputs: {inputs}. Dims not given: {dims}.</source>
        <comment>SMOKE_RUN_FAILED</comment>
        <translation>{subject}: ONNX Runtime が実行を拒否しました: {detail}。生成した入力: {inputs}。指定のない次元: {dims}。</translation>
    </message>
    <message>
        <source>{subject}: ONNX Runtime rejected the run: {detail} Generated inputs: {inputs}. The automatic search tried {attempts} more size(s) ({tried}) without success.</source>
        <comment>SMOKE_RUN_FAILED</comment>
        <translation>{subject}: ONNX Runtime が実行を拒否しました: {detail}。生成した入力: {inputs}。自動探索でさらに {attempts} 通りの大きさ ({tried}) を試しましたが成功しませんでした。</translation>
    </message>
    <message>
        <source>{subject}: ONNX Runtime rejected the run: {detail} Dims not given: {dims}. The automatic search tried {attempts} more size(s) ({tried}) without success.</source>
        <comment>SMOKE_RUN_FAILED</comment>
        <translation>{subject}: ONNX Runtime が実行を拒否しました: {detail}。指定のない次元: {dims}。自動探索でさらに {attempts} 通りの大きさ ({tried}) を試しましたが成功しませんでした。</translation>
    </message>
    <message>
        <source>{subject}: ONNX Runtime rejected the run: {detail} Generated inputs: {inputs}. Dims not given: {dims}. The automatic search tried {attempts} more size(s) ({tried}) without success.</source>
        <comment>SMOKE_RUN_FAILED</comment>
        <translation>{subject}: ONNX Runtime が実行を拒否しました: {detail}。生成した入力: {inputs}。指定のない次元: {dims}。自動探索でさらに {attempts} 通りの大きさ ({tried}) を試しましたが成功しませんでした。</translation>
    </message>
    <message>
        <source>The smoke run was skipped because the bundle failed verification</source>
        <comment>SMOKE_SKIPPED</comment>
        <translation>バンドルの検証に失敗したため、スモーク実行を省略しました</translation>
    </message>
    <message>
        <source>Output {name} is within atol={atol}, rtol={rtol} of the recorded run (max abs diff {max_abs}, max rel diff {max_rel}); digests differ because the ONNX Runtime version differs</source>
        <comment>SMOKE_WITHIN_TOLERANCE</comment>
        <translation>出力 {subject} は記録された実行結果の許容誤差の範囲内です。ONNX Runtime のバージョンが違うため、ダイジェストは異なります</translation>
    </message>
    <message>
        <source>Tensor {tensor} holds {bytes} bytes (≥ 2 GiB): it can only ever live in external data</source>
        <comment>TENSOR_NOT_EMBEDDABLE</comment>
        <translation>テンソル {tensor} は {size} (2 GiB 以上) あり、外部データにしか置けません</translation>
    </message>
    <message>
        <source>Tensor {label}: {length:,} bytes of raw_data, but {dtype} {dims} needs {expected:,}</source>
        <comment>TENSOR_SIZE_MISMATCH</comment>
        <translation>テンソル {subject}: raw_data の大きさが型と形状に合いません</translation>
    </message>
    <message>
        <source>Tensor {label}: a STRING tensor with {length:,} bytes of raw_data (strings live in string_data)</source>
        <comment>TENSOR_SIZE_MISMATCH</comment>
        <translation>テンソル {label}: STRING テンソルに {length:,} バイトの raw_data があります（文字列は string_data に入ります）</translation>
    </message>
    <message>
        <source>Tensor {tensor} is 2 GiB or more</source>
        <comment>TENSOR_TOO_LARGE</comment>
        <translation>テンソル {subject} は 2 GiB 以上あります</translation>
    </message>
    <message>
        <source>Version {version} is not greater than the previous release {previous}</source>
        <comment>VERSION_NOT_GREATER</comment>
        <translation>バージョン {version} は {previous} より大きくありません（強制）</translation>
    </message>
    <message>
        <source>Version {version} is not greater than {previous} (forced)</source>
        <comment>VERSION_NOT_GREATER</comment>
        <translation>バージョン {version} は {previous} より大きくありません（強制）</translation>
    </message>
    <message>
        <source>Version {version} is a smaller step than this {bump} change needs (suggested {suggested})</source>
        <comment>VERSION_UNDERBUMP</comment>
        <translation>バージョン {version} は、この {bump} の変更に必要な上げ幅より小さいです（推奨: {suggested}）</translation>
    </message>
    <message>
        <source>{model} declares {declared}, beyond every ONNX release onnxpack knows (onnx {onnx}); no ONNX Runtime release loads it</source>
        <comment>VERSION_UNRELEASED</comment>
        <translation>{model} は {declared} を宣言しています。onnxpack が知るどの ONNX リリース（onnx {onnx}）よりも新しいため、これを読み込める ONNX Runtime のリリースはありません</translation>
    </message>
    <message>
        <source>The central directory is damaged (bad entry header)</source>
        <comment>ZIP_BAD_DIRECTORY</comment>
        <translation>ZIP の中央ディレクトリが壊れています</translation>
    </message>
    <message>
        <source>The central directory is truncated</source>
        <comment>ZIP_BAD_DIRECTORY</comment>
        <translation>中央ディレクトリが途中で切れています</translation>
    </message>
    <message>
        <source>Member {name!r} has a damaged extra field</source>
        <comment>ZIP_BAD_DIRECTORY</comment>
        <translation>メンバー「{name}」の拡張フィールドが壊れています</translation>
    </message>
    <message>
        <source>The central directory has unaccounted bytes</source>
        <comment>ZIP_BAD_DIRECTORY</comment>
        <translation>中央ディレクトリに説明のつかないバイトがあります</translation>
    </message>
    <message>
        <source>The ZIP64 end record is missing or damaged</source>
        <comment>ZIP_BAD_END</comment>
        <translation>ZIP64 の終端レコードがないか、壊れています</translation>
    </message>
    <message>
        <source>The ZIP64 end record is damaged: it says {value} for the {field}, the ZIP end record {old}</source>
        <comment>ZIP_BAD_END</comment>
        <translation>ZIP64 の終端レコードが壊れています: {field} が {value} ですが、ZIP の終端レコードでは {old} です</translation>
    </message>
    <message>
        <source>Member {name!r}: no local header at its offset</source>
        <comment>ZIP_BAD_HEADER</comment>
        <translation>メンバー {subject}: ローカルヘッダーがないか、壊れています</translation>
    </message>
    <message>
        <source>Member {name!r}: damaged local extra field</source>
        <comment>ZIP_BAD_HEADER</comment>
        <translation>メンバー「{name}」: ローカル拡張フィールドが壊れています</translation>
    </message>
    <message>
        <source>Member name {name!r} {why}</source>
        <comment>ZIP_BAD_NAME</comment>
        <translation>メンバー名 {subject} は使えません</translation>
    </message>
    <message>
        <source>Member {name!r} carries a second (Unicode path) name</source>
        <comment>ZIP_BAD_NAME</comment>
        <translation>メンバー「{name}」が 2 つ目の名前（Unicode パス）を持っています</translation>
    </message>
    <message>
        <source>Member name {raw!r} is not valid UTF-8</source>
        <comment>ZIP_BAD_NAME</comment>
        <translation>メンバー名「{raw}」は正しい UTF-8 ではありません</translation>
    </message>
    <message>
        <source>Stored member {name!r} declares {size} bytes but occupies {stored}</source>
        <comment>ZIP_BAD_SIZE</comment>
        <translation>メンバー {subject} の宣言された大きさが、実際に占める大きさと合いません</translation>
    </message>
    <message>
        <source>Member {name!r} uses compression method {method} (only stored/deflate)</source>
        <comment>ZIP_COMPRESSION</comment>
        <translation>メンバー {subject} は stored と deflate 以外の圧縮方式を使っています</translation>
    </message>
    <message>
        <source>{path} cannot be read intact: {detail}</source>
        <comment>ZIP_DAMAGED</comment>
        <translation>{subject} を壊れていない状態で読み取れません</translation>
    </message>
    <message>
        <source>{path} cannot be read: {detail}</source>
        <comment>ZIP_DAMAGED</comment>
        <translation>{path} を読めません: {detail}</translation>
    </message>
    <message>
        <source>Member {name!r} is a directory entry</source>
        <comment>ZIP_DIRECTORY</comment>
        <translation>メンバー {subject} はディレクトリのエントリーです</translation>
    </message>
    <message>
        <source>Member name {name!r} {why}</source>
        <comment>ZIP_DIRECTORY</comment>
        <translation>メンバー名「{name}」は使えません（{why}）</translation>
    </message>
    <message>
        <source>Member name {name!r} appears twice</source>
        <comment>ZIP_DUPLICATE</comment>
        <translation>メンバー名 {subject} が（大文字と小文字を区別しないと）2 回現れます</translation>
    </message>
    <message>
        <source>Member names {first!r} and {name!r} are the same after case folding / normalisation</source>
        <comment>ZIP_DUPLICATE</comment>
        <translation>メンバー名「{first}」と「{name}」は大文字小文字の区別や正規化をなくすと同じになります</translation>
    </message>
    <message>
        <source>Member {name!r} is encrypted</source>
        <comment>ZIP_ENCRYPTED</comment>
        <translation>メンバー {subject} は暗号化されています</translation>
    </message>
    <message>
        <source>{count} unaccounted byte(s) before member {name!r}</source>
        <comment>ZIP_GAP</comment>
        <translation>アーカイブのエントリーの間に、説明のつかないバイトがあります</translation>
    </message>
    <message>
        <source>{count} unaccounted byte(s) before the central directory</source>
        <comment>ZIP_GAP</comment>
        <translation>中央ディレクトリの前に説明のつかない {count} バイトがあります</translation>
    </message>
    <message>
        <source>The central directory does not end where the end record starts ({gap} bytes)</source>
        <comment>ZIP_GAP</comment>
        <translation>中央ディレクトリが終端レコードの始まりで終わっていません（{gap} バイト）</translation>
    </message>
    <message>
        <source>Member {name!r}: local header disagrees with the central directory ({fields})</source>
        <comment>ZIP_HEADER_MISMATCH</comment>
        <translation>メンバー {subject}: ローカルヘッダーが中央ディレクトリと一致しません</translation>
    </message>
    <message>
        <source>{count} unaccounted byte(s) before the first entry</source>
        <comment>ZIP_LEADING_DATA</comment>
        <translation>アーカイブの最初のエントリーの前に、説明のつかないバイトがあります</translation>
    </message>
    <message>
        <source>The archive claims to span several disks</source>
        <comment>ZIP_MULTIDISK</comment>
        <translation>アーカイブが複数のディスクにまたがっていると主張しています</translation>
    </message>
    <message>
        <source>Member {name!r} starts on another disk</source>
        <comment>ZIP_MULTIDISK</comment>
        <translation>メンバー「{name}」が別のディスクから始まっています</translation>
    </message>
    <message>
        <source>Member {name!r} is a file, but {folder!r} uses it as a folder</source>
        <comment>ZIP_NAME_CONFLICT</comment>
        <translation>メンバー {subject} はファイルですが、別のメンバーがそれをフォルダーとして使っています</translation>
    </message>
    <message>
        <source>The file is not a ZIP archive (no end-of-central-directory record)</source>
        <comment>ZIP_NOT_ZIP</comment>
        <translation>このファイルは ZIP アーカイブではありません</translation>
    </message>
    <message>
        <source>Member {name!r} overlaps the previous entry</source>
        <comment>ZIP_OVERLAP</comment>
        <translation>アーカイブのエントリーが重なっています</translation>
    </message>
    <message>
        <source>Member {name!r} extends into the central directory</source>
        <comment>ZIP_OVERLAP</comment>
        <translation>メンバー「{name}」が中央ディレクトリにはみ出しています</translation>
    </message>
    <message>
        <source>The central directory does not end where the end record starts ({gap} bytes)</source>
        <comment>ZIP_OVERLAP</comment>
        <translation>中央ディレクトリが終端レコードの始まりで終わっていません（{gap} バイト）</translation>
    </message>
    <message>
        <source>Member {name!r} would expand {stored} bytes to {size} (ratio above {ratio}: a zip bomb?)</source>
        <comment>ZIP_RATIO</comment>
        <translation>メンバー {subject} は実際のデータではありえないほど大きく展開されます（ZIP 爆弾の可能性）</translation>
    </message>
    <message>
        <source>Member {name!r} is a special file (mode {mode})</source>
        <comment>ZIP_SPECIAL</comment>
        <translation>メンバー {subject} は特殊ファイルです</translation>
    </message>
    <message>
        <source>Member {name!r} is a symbolic link</source>
        <comment>ZIP_SYMLINK</comment>
        <translation>メンバー {subject} はリンクです</translation>
    </message>
    <message>
        <source>Member {name!r} is a reparse point (link)</source>
        <comment>ZIP_SYMLINK</comment>
        <translation>メンバー「{name}」はリパース ポイント（リンク）です</translation>
    </message>
    <message>
        <source>The archive declares {entries} entries / {bytes} directory bytes</source>
        <comment>ZIP_TOO_LARGE</comment>
        <translation>アーカイブが、onnxpack の受け付ける数や大きさを超えるエントリーを宣言しています</translation>
    </message>
    <message>
        <source>Member {name!r} declares {size} bytes (cap {cap})</source>
        <comment>ZIP_TOO_LARGE</comment>
        <translation>メンバー「{name}」は {size} バイトと宣言しています（上限 {cap}）</translation>
    </message>
    <message>
        <source>{count} byte(s) after the end of the ZIP end record</source>
        <comment>ZIP_TRAILING_DATA</comment>
        <translation>ZIP アーカイブの終端レコードの前後に、説明のつかないバイトがあります</translation>
    </message>
    <message>
        <source>{count} byte(s) missing from the end of the ZIP end record</source>
        <comment>ZIP_TRAILING_DATA</comment>
        <translation>ZIP の終端レコードの末尾から {count} バイトが欠けています</translation>
    </message>
    <message>
        <source>Unaccounted bytes between the ZIP64 end record and its locator</source>
        <comment>ZIP_TRAILING_DATA</comment>
        <translation>ZIP64 の終端レコードとそのロケーターの間に説明のつかないバイトがあります</translation>
    </message>
    <message>
        <source>The ZIP end record is truncated</source>
        <comment>ZIP_TRUNCATED</comment>
        <translation>ZIP アーカイブが途中で切れています</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 時間 %2 分</translation>
    </message>
</context>
<context>
    <name>Hints</name>
    <message>
        <source>In the Bundle tab, give an .npy file for this input under &quot;Input data&quot;, or leave it empty to use generated data.</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Harmless: the bundle&apos;s own data file (used above 2 GiB) is written 64 KiB-aligned.</source>
        <translation>問題ありません。バンドル自体のデータファイル (2 GiB を超える場合に使用) は 64 KiB 境界に揃えて書き出されます。</translation>
    </message>
    <message>
        <source>The operators are too new for that runtime: choose a newer Target ONNX Runtime in the Bundle tab, or export the model with an older opset.</source>
        <translation>演算子がそのランタイムには新しすぎます。バンドル タブでより新しい対象 ONNX Runtime を選ぶか、古い opset でモデルをエクスポートしてください。</translation>
    </message>
    <message>
        <source>Bundling writes it as one self-contained .onnx file; nothing to do.</source>
        <translation>バンドル時に自己完結した 1 つの .onnx ファイルとして書き出します。操作は不要です。</translation>
    </message>
    <message>
        <source>Above 2 GiB the bundle keeps the weights in one aligned .onnx.data beside the model; nothing to do.</source>
        <translation>2 GiB を超えると、バンドルは重みをモデルの隣の境界揃えされた .onnx.data 1 つに保持します。操作は不要です。</translation>
    </message>
    <message>
        <source>Type an SPDX identifier under License in the Bundle tab, e.g. MIT, Apache-2.0 or CC-BY-4.0.</source>
        <translation>バンドル タブの「ライセンス」に SPDX 識別子 (例: MIT、Apache-2.0、CC-BY-4.0) を入力してください。</translation>
    </message>
    <message>
        <source>Type the full address under Homepage in the Bundle tab, e.g. https://example.org.</source>
        <translation>バンドル タブの「ホームページ」に完全なアドレス (例: https://example.org) を入力してください。</translation>
    </message>
    <message>
        <source>Separate the names under Authors in the Bundle tab with &apos;;&apos; and leave none empty.</source>
        <translation>バンドル タブの「作成者」では名前を「;」で区切り、空の名前を残さないでください。</translation>
    </message>
    <message>
        <source>Choose a release from the Target ONNX Runtime list in the Bundle tab, or leave it empty.</source>
        <translation>バンドル タブの「対象の ONNX Runtime」の一覧からリリースを選ぶか、空欄にしてください。</translation>
    </message>
    <message>
        <source>Set its size under Symbolic dimensions in the Bundle tab (0 = automatic).</source>
        <translation>バンドル タブの「シンボリック次元」でサイズを指定してください (0 = 自動)。</translation>
    </message>
    <message>
        <source>Set smaller sizes under Symbolic dimensions in the Bundle tab, or untick the smoke run.</source>
        <translation>バンドル タブの「シンボリック次元」でより小さいサイズを指定するか、スモーク実行のチェックを外してください。</translation>
    </message>
    <message>
        <source>Give real input data (.npy) under Input data in the Bundle tab: generated values may be outside what the model expects.</source>
        <translation>バンドル タブの「入力データ」に実際の入力データ (.npy) を指定してください。生成値はモデルが想定する範囲外かもしれません。</translation>
    </message>
    <message>
        <source>Open the original .onnx model; tick &quot;Also include an ORT-format (.ort) variant&quot; to ship an .ort too.</source>
        <translation>元の .onnx モデルを開いてください。.ort も同梱するには「ORT 形式（.ort）版も同梱する」にチェックを入れてください。</translation>
    </message>
    <message>
        <source>Untick &quot;Write the release version into the model&apos;s model_version&quot;, or use smaller version numbers.</source>
        <translation>「リリース バージョンをモデルの model_version に書き込む」のチェックを外すか、より小さいバージョン番号を使ってください。</translation>
    </message>
    <message>
        <source>Choose your private key (.key/.pem) under Signing key in the Bundle tab; make one with onnxpack keygen. Encrypted keys can only be used from the command line.</source>
        <translation>バンドル タブの「署名鍵」で秘密鍵 (.key/.pem) を選んでください。鍵は onnxpack keygen で作成できます。暗号化された鍵はコマンドラインからのみ使えます。</translation>
    </message>
    <message>
        <source>Sign with a key instead: choose it under Signing key in the Bundle tab.</source>
        <translation>代わりに鍵で署名してください。バンドル タブの「署名鍵」で選べます。</translation>
    </message>
    <message>
        <source>The changes that call for a bigger step are listed in the Result tab&apos;s release comparison.</source>
        <translation>より大きな上げ幅が必要な変更は、［結果］タブのリリースの比較に一覧があります。</translation>
    </message>
    <message>
        <source>Give real sizes under Symbolic dimensions or real data under Input data in the Bundle tab.</source>
        <translation>［バンドル］タブの「シンボリック次元」で実際の大きさを、または「入力データ」で実際のデータを指定してください。</translation>
    </message>
    <message>
        <source>Set these sizes (or the model&apos;s real sizes) under Symbolic dimensions in the Bundle tab.</source>
        <translation>［バンドル］タブの「シンボリック次元」で、これらの大きさ（またはモデルの実際の大きさ）を指定してください。</translation>
    </message>
    <message>
        <source>Rebuild the bundle with the smoke run ticked to record one.</source>
        <translation>スモーク実行をオンにしてバンドルを作り直すと、記録が残ります。</translation>
    </message>
    <message>
        <source>Fix the errors listed in the Findings tab first.</source>
        <translation>先に［所見］タブに挙がったエラーを解決してください。</translation>
    </message>
    <message>
        <source>If it is an onnxpack bundle, open it to verify it; otherwise extract the model first.</source>
        <translation>onnxpack のバンドルなら、開いて検証してください。そうでなければ、先にモデルを取り出してください。</translation>
    </message>
    <message>
        <source>Open the .onnx model file that uses this data file; keep the data file beside it.</source>
        <translation>このデータファイルを使う .onnx モデルファイルを開いてください。データファイルはその隣に置いたままにしてください。</translation>
    </message>
    <message>
        <source>tick &quot;%1&quot; in the Bundle tab</source>
        <translation>バンドル タブの「%1」にチェックを入れてください</translation>
    </message>
    <message>
        <source>Connect to the internet (each release is downloaded once, then cached), or do not prove on ONNX Runtime releases.</source>
        <translation>インターネットに接続してください（各リリースは初回だけダウンロードされ、以後はキャッシュされます）。または ONNX Runtime リリースでの検証をやめてください。</translation>
    </message>
    <message>
        <source>Choose a release with a wheel for this Python (for Python 3.11: 1.15.0 and newer).</source>
        <translation>この Python 向けのホイールがあるリリースを選んでください（Python 3.11 では 1.15.0 以降）。</translation>
    </message>
    <message>
        <source>Give a released version, e.g. 1.16.3.</source>
        <translation>リリース済みのバージョンを指定してください（例: 1.16.3）。</translation>
    </message>
    <message>
        <source>Try again; if it repeats, do not trust this network connection.</source>
        <translation>もう一度試してください。繰り返す場合は、このネットワーク接続を信用しないでください。</translation>
    </message>
    <message>
        <source>Check the internet connection and try again; the details show the output of pip.</source>
        <translation>インターネット接続を確認して、もう一度試してください。詳細に pip の出力があります。</translation>
    </message>
    <message>
        <source>Set ONNXPACK_PYTHON to a Python 3.10+ interpreter, or use onnxpack installed with pip.</source>
        <translation>ONNXPACK_PYTHON に Python 3.10 以降のインタープリターを設定するか、pip でインストールした onnxpack を使ってください。</translation>
    </message>
    <message>
        <source>Give the sizes the model needs under Symbolic dimensions in the Bundle tab.</source>
        <translation>バンドルタブの「シンボリック次元」で、モデルに必要なサイズを指定してください。</translation>
    </message>
    <message>
        <source>Smoke-run the model to see why it fails.</source>
        <translation>モデルをスモーク実行して、失敗する理由を確認してください。</translation>
    </message>
    <message>
        <source>Retarget the model for the oldest of those releases (set it as the target runtime and lower the IR version), or prove newer releases only.</source>
        <translation>それらのうち最も古いリリースに向けてモデルを変換する（目標ランタイムに設定し、IR バージョンを下げる）か、より新しいリリースだけで検証してください。</translation>
    </message>
    <message>
        <source>Give releases like 1.16.3,1.20.1, a MAJOR.MINOR, newest, or auto.</source>
        <translation>1.16.3,1.20.1 のようなリリース、MAJOR.MINOR、newest、または auto を指定してください。</translation>
    </message>
    <message>
        <source>Choose the target ONNX Runtime yourself, or update onnxpack.</source>
        <translation>目標の ONNX Runtime を自分で選ぶか、onnxpack を更新してください。</translation>
    </message>
    <message>
        <source>Give the Cargo.lock, .csproj, packages.lock.json, package-lock.json, requirements.txt, pyproject.toml or uv.lock of the app.</source>
        <translation>アプリの Cargo.lock、.csproj、packages.lock.json、package-lock.json、requirements.txt、pyproject.toml、uv.lock のいずれかを指定してください。</translation>
    </message>
    <message>
        <source>Choose the target ONNX Runtime yourself, or give the file that pins ONNX Runtime.</source>
        <translation>目標の ONNX Runtime を自分で選ぶか、ONNX Runtime のバージョンを固定しているファイルを指定してください。</translation>
    </message>
    <message>
        <source>Bundle with that release as the target runtime and the IR version lowered: onnxpack retargets the released copy and proves it.</source>
        <translation>そのリリースを目標ランタイムにして IR バージョンを下げてバンドルしてください。onnxpack が配布用のコピーを変換し、検証します。</translation>
    </message>
    <message>
        <source>Check whether the difference matters before shipping the model for that release.</source>
        <translation>そのリリース向けに配布する前に、この差が問題にならないか確認してください。</translation>
    </message>
    <message>
        <source>Re-export the model for the opset of the target runtime, or choose a newer target runtime.</source>
        <translation>目標ランタイムの opset でモデルをエクスポートし直すか、より新しい目標ランタイムを選んでください。</translation>
    </message>
    <message>
        <source>Open the NAME-VERSION.zip that onnxpack made to verify it; open a model file to inspect the model.</source>
        <translation>検証するには onnxpack が作成した NAME-VERSION.zip を開いてください。モデルを調べるにはモデルファイルを開いてください。</translation>
    </message>
    <message>
        <source>Under &quot;Previous bundle&quot; in the Bundle tab, choose the .zip of the release before this one.</source>
        <translation>バンドルタブの「前回のバンドル」で、このひとつ前のリリースの .zip を選んでください。</translation>
    </message>
    <message>
        <source>Untick &quot;Also include an ORT-format (.ort) variant&quot;, or report the model to the ONNX Runtime project.</source>
        <translation>「ORT 形式（.ort）の版も含める」をオフにするか、このモデルを ONNX Runtime のプロジェクトに報告してください。</translation>
    </message>
    <message>
        <source>Untick &quot;Also include an ORT-format (.ort) variant&quot; for this model.</source>
        <translation>このモデルでは「ORT 形式（.ort）の版も含める」をオフにしてください。</translation>
    </message>
    <message>
        <source>Choose an output folder outside the model&apos;s folder; onnxpack never modifies its inputs.</source>
        <translation>モデルのフォルダーの外にある出力フォルダーを選んでください。onnxpack は入力を変更しません。</translation>
    </message>
    <message>
        <source>Choose an existing output folder in the Bundle tab.</source>
        <translation>［バンドル］タブで既存の出力フォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Lowering the IR version would not let this model bundle: %1 must be fixed first.</source>
        <translation>IR バージョンを下げてもこのモデルはバンドルできません。先に %1 を修正してください。</translation>
    </message>
    <message>
        <source>Choose a Target ONNX Runtime, then %1.</source>
        <translation>対象 ONNX Runtime を選んでから、%1。</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>「%1」</translation>
    </message>
    <message>
        <source>Give each author&apos;s name (and e-mail), e.g. &apos;Ada &lt;ada@example.org&gt;&apos;.</source>
        <translation>バンドル タブの「作成者」では名前を「;」で区切り、空の名前を残さないでください。</translation>
    </message>
    <message>
        <source>Give the full address, e.g. https://example.org/model.</source>
        <translation>バンドル タブの「ホームページ」に完全なアドレス (例: https://example.org) を入力してください。</translation>
    </message>
    <message>
        <source>Give one non-empty label per class, in output order.</source>
        <translation>クラスごとに空でないラベルを出力の順に 1 つずつ指定してください。</translation>
    </message>
    <message>
        <source>Check the labels file.</source>
        <translation>ラベル ファイルを確認してください。</translation>
    </message>
    <message>
        <source>Give a text file, one label per line.</source>
        <translation>1 行に 1 つのラベルを書いたテキスト ファイルを指定してください。</translation>
    </message>
    <message>
        <source>Save it as UTF-8, one label per line.</source>
        <translation>UTF-8 で、1 行に 1 つのラベルとして保存してください。</translation>
    </message>
    <message>
        <source>Give one label per class of the output, in order (or pass {opt:allow_unmatched_labels} to keep them).</source>
        <translation>出力のクラスごとにラベルを 1 つずつ順に指定してください（そのまま使うには {opt:allow_unmatched_labels} を指定します）。</translation>
    </message>
    <message>
        <source>Use an identifier from https://spdx.org/licenses/ such as MIT, Apache-2.0 or CC-BY-4.0 (combine with AND/OR), or LicenseRef-NAME for your own.</source>
        <translation>バンドル タブの「ライセンス」に SPDX 識別子 (例: MIT、Apache-2.0、CC-BY-4.0) を入力してください。</translation>
    </message>
    <message>
        <source>Use a plain file name such as &apos;victory&apos; (letters, digits, &apos;-&apos;, &apos;_&apos;, &apos;.&apos;); the files in the bundle are NAME.onnx and NAME-VERSION.zip.</source>
        <translation>&apos;victory&apos; のような単純なファイル名を使ってください（英字・数字・&apos;-&apos;・&apos;_&apos;・&apos;.&apos;）。</translation>
    </message>
    <message>
        <source>Give releases like 1.16.3,1.20.1, a MAJOR.MINOR (its newest patch), newest, or auto (the oldest release the model claims plus the newest).</source>
        <translation>1.16.3,1.20.1 のようなリリース、MAJOR.MINOR、newest、または auto を指定してください。</translation>
    </message>
    <message>
        <source>Give a release as MAJOR.MINOR, e.g. {opt:target_ort} 1.17.</source>
        <translation>バンドル タブの「対象の ONNX Runtime」の一覧からリリースを選ぶか、空欄にしてください。</translation>
    </message>
    <message>
        <source>Use MAJOR.MINOR.PATCH, e.g. 1.0.0 or 2.1.0-rc.1 (semver.org); no leading &apos;v&apos;, no leading zeros.</source>
        <translation>1.0.0 や 2.1.0-rc.1 のような MAJOR.MINOR.PATCH の形で、先頭に &apos;v&apos; や 0 を付けずに指定してください。</translation>
    </message>
    <message>
        <source>Make sure nothing writes the bundle while it is verified, and verify it again.</source>
        <translation>検証中にバンドルへ書き込むものがないことを確かめてから、もう一度検証してください。</translation>
    </message>
    <message>
        <source>Run `onnxpack check` on the model for every finding.</source>
        <translation>先に［所見］タブに挙がったエラーを解決してください。</translation>
    </message>
    <message>
        <source>Give the NAME-VERSION.zip that `onnxpack bundle` wrote.</source>
        <translation>検証するには onnxpack が作成した NAME-VERSION.zip を開いてください。モデルを調べるにはモデルファイルを開いてください。</translation>
    </message>
    <message>
        <source>Give the NAME-VERSION.zip that `onnxpack bundle` wrote; to check the model itself, run `onnxpack check {path}`.</source>
        <translation>`onnxpack bundle` が書き出した NAME-VERSION.zip を指定してください。モデル自体を調べるには `onnxpack check {path}` を実行します。</translation>
    </message>
    <message>
        <source>Give the bundle .zip this manifest came from: a manifest alone cannot show that the files are intact.</source>
        <translation>このマニフェストの元のバンドル .zip を指定してください。マニフェストだけではファイルが無傷であることを示せません。</translation>
    </message>
    <message>
        <source>Do not ship this model; re-export it. onnxpack itself was not affected.</source>
        <translation>このモデルは配布せず、エクスポートし直してください。onnxpack 自体には影響ありません。</translation>
    </message>
    <message>
        <source>Re-export the model from its source framework.</source>
        <translation>モデルをエクスポートし直してください。</translation>
    </message>
    <message>
        <source>Update onnxpack (and its onnx) to check this model.</source>
        <translation>このモデルを確認するには onnxpack（とその onnx）を更新してください。</translation>
    </message>
    <message>
        <source>The model may be pathological; re-export it, or check it on a faster machine.</source>
        <translation>モデルが異常な構造かもしれません。エクスポートし直すか、より速いマシンで確認してください。</translation>
    </message>
    <message>
        <source>Fix the problems listed: the others are of the same kind.</source>
        <translation>表示された問題を直してください。残りも同じ種類の問題です。</translation>
    </message>
    <message>
        <source>The bundle was modified after it was built. Get it again from its publisher, or rebuild it.</source>
        <translation>バンドルが作成後に変更されています。配布元から取得し直すか、作り直してください。</translation>
    </message>
    <message>
        <source>Give one class label per output class, in order, under Class labels in the Bundle tab (or {opt:allow_unmatched_labels} to keep them).</source>
        <translation>バンドル タブの「クラスラベル」に出力クラスごとに 1 つずつ順番に入力してください (そのまま使うには {opt:allow_unmatched_labels})。</translation>
    </message>
    <message>
        <source>Set it to a Unix timestamp such as {example}, or unset it.</source>
        <translation>{example} のような Unix タイムスタンプを設定するか、設定を外してください。</translation>
    </message>
    <message>
        <source>Give the model&apos;s path (is a variable such as $MODEL unset?); with no argument at all, onnxpack bundles its built-in sample.</source>
        <translation>モデルのパスを指定してください ($MODEL などの変数が未設定ではありませんか?)。引数をまったく指定しない場合、onnxpack は組み込みのサンプルをバンドルします。</translation>
    </message>
    <message>
        <source>Give your model&apos;s path (or its folder) as the first argument.</source>
        <translation>最初の引数にモデルのパス (またはそのフォルダー) を指定してください。</translation>
    </message>
    <message>
        <source>Compare models with the same outputs.</source>
        <translation>同じ出力を持つモデルどうしを比べてください。</translation>
    </message>
    <message>
        <source>Only models with the same inputs can be compared.</source>
        <translation>比べられるのは同じ入力を持つモデルどうしだけです。</translation>
    </message>
    <message>
        <source>Tolerance is {tol}; raise {opt:atol}/{opt:rtol} if small differences are expected (e.g. an optimized graph).</source>
        <translation>小さな差が想定される場合（最適化したグラフなど）は、許容誤差を大きくしてください。</translation>
    </message>
    <message>
        <source>The output is non-deterministic, so runs differ anyway. Tolerance is {tol}; raise {opt:atol}/{opt:rtol} if small differences are expected (e.g. an optimized graph).</source>
        <translation>この出力は非決定的なので、実行ごとに異なります。許容誤差は {tol} です。小さな差が想定される場合（最適化したグラフなど）は {opt:atol}/{opt:rtol} を大きくしてください。</translation>
    </message>
    <message>
        <source>Expected for re-optimized graphs; a merged copy of the same model should be bitwise identical.</source>
        <translation>再最適化したグラフでは想定どおりです。同じモデルを結合したコピーならビット単位で一致するはずです。</translation>
    </message>
    <message>
        <source>The two models do not behave alike; check that you compare the right files.</source>
        <translation>2 つのモデルの振る舞いが違います。正しいファイルを比べているか確認してください。</translation>
    </message>
    <message>
        <source>Check the spelling (names are case-sensitive); an unnamed dimension is INPUT[AXIS], e.g. {opt:dim} &quot;x[0]=1&quot;.</source>
        <translation>バンドル タブの「シンボリック次元」でサイズを指定してください (0 = 自動)。</translation>
    </message>
    <message>
        <source>The smoke run proves the installed ORT has them.</source>
        <translation>インストール済みの ORT にそれらがあるかは、スモーク実行で確かめられます。</translation>
    </message>
    <message>
        <source>Ship the custom-op library with the model, or re-export without custom operators.</source>
        <translation>カスタム演算子のライブラリをモデルと一緒に配布するか、カスタム演算子なしでエクスポートし直してください。</translation>
    </message>
    <message>
        <source>Remove the duplicates (keep the intended tensor) and re-export.</source>
        <translation>重複を取り除いて（意図したテンソルを残して）エクスポートし直してください。</translation>
    </message>
    <message>
        <source>Move the data file next to the model and save the model with a relative location.</source>
        <translation>データファイルをモデルの隣に移し、相対的な場所でモデルを保存してください。</translation>
    </message>
    <message>
        <source>Re-export the model, or fix the external data file next to it.</source>
        <translation>モデルをエクスポートし直すか、隣の外部データ ファイルを直してください。</translation>
    </message>
    <message>
        <source>Rename the data file without &apos;..&apos; and save the model again with that location.</source>
        <translation>&apos;..&apos; を含まない名前にデータ ファイルを変え、その場所でモデルを保存し直してください。</translation>
    </message>
    <message>
        <source>The model was saved from a live ORT session by mistake; export it again.</source>
        <translation>このモデルは実行中の ORT セッションから誤って保存されたものです。エクスポートし直してください。</translation>
    </message>
    <message>
        <source>The data file was modified or replaced; restore the original.</source>
        <translation>データファイルが変更されたか置き換えられています。元のファイルに戻してください。</translation>
    </message>
    <message>
        <source>Replace the hard link with a real copy of the file (e.g. `{copy}`).</source>
        <translation>ハードリンクを、ファイルの実際のコピーに置き換えてください。</translation>
    </message>
    <message>
        <source>Remove the stray external_data entries or set data_location to EXTERNAL.</source>
        <translation>不要な external_data の項目を取り除くか、data_location を EXTERNAL にしてください。</translation>
    </message>
    <message>
        <source>The model and its data file do not match; export them again together.</source>
        <translation>モデルとデータファイルが一致しません。両方を一緒にエクスポートし直してください。</translation>
    </message>
    <message>
        <source>Put the .data file next to the .onnx file (same folder, same name as written in the model), or give its folder with {opt:data_dir}.</source>
        <translation>.data ファイルを .onnx ファイルの隣 (同じフォルダー、モデルに書かれたとおりの名前) に置くか、「ファイル → データファイルの場所を指定…」で場所を選んでください。</translation>
    </message>
    <message>
        <source>Rename {found!r} back to {file!r}, the name the model records (or copy it to that name).</source>
        <translation>「{found}」の名前を、モデルに記録された名前「{file}」に戻してください (または、その名前でコピーしてください)。</translation>
    </message>
    <message>
        <source>If one of them is this model&apos;s data file, rename it back to {file!r} (the name the model records); else put the .data file next to the .onnx file, or give its folder with {opt:data_dir}.</source>
        <translation>どれかがこのモデルのデータファイルなら、名前をモデルに記録された「{file}」に戻してください。そうでなければ .data ファイルを .onnx ファイルの隣に置くか、{opt:data_dir} でそのフォルダーを指定してください。</translation>
    </message>
    <message>
        <source>Put the .data file next to the .onnx file (same folder, same name as written in the model), or choose where it is with {act:locate_data_file}</source>
        <translation>.data ファイルを .onnx ファイルの隣 (同じフォルダー、モデルに書かれたとおりの名前) に置くか、「{act:locate_data_file}」で場所を選んでください。</translation>
    </message>
    <message>
        <source>External data must be an ordinary file.</source>
        <translation>外部データは通常のファイルでなければなりません。</translation>
    </message>
    <message>
        <source>Make sure nothing else modifies the model folder while onnxpack runs.</source>
        <translation>onnxpack の実行中は、ほかのものがモデル フォルダーを変更しないようにしてください。</translation>
    </message>
    <message>
        <source>Keep external data inside the model folder and use a plain relative file name.</source>
        <translation>外部データはモデルのフォルダーの中に置き、単純な相対ファイル名を使ってください。</translation>
    </message>
    <message>
        <source>Keep external data inside the model folder.</source>
        <translation>外部データはモデル フォルダーの中に置いてください。</translation>
    </message>
    <message>
        <source>The data file is truncated or belongs to another model; export again.</source>
        <translation>データファイルが途中で切れているか、別のモデルのものです。モデルをエクスポートし直してください（その間にフォルダーを変更するものがないことも確かめてください）。</translation>
    </message>
    <message>
        <source>The model file changed while it was read; read it again.</source>
        <translation>読み込み中にモデル ファイルが変わりました。もう一度読み込んでください。</translation>
    </message>
    <message>
        <source>Overlapping tensors are unusual; check the exporter. A merge copies each separately.</source>
        <translation>テンソルが重なるのは普通ではありません。エクスポーターを確認してください。結合ではそれぞれを別々にコピーします。</translation>
    </message>
    <message>
        <source>Store string tensors inline.</source>
        <translation>文字列のテンソルはインラインで保存してください。</translation>
    </message>
    <message>
        <source>Replace the link with the real file inside the model folder.</source>
        <translation>リンクを、モデルのフォルダー内にある実際のファイルに置き換えてください。</translation>
    </message>
    <message>
        <source>Harmless; `onnxpack merge --layout external` writes a 64 KiB-aligned data file.</source>
        <translation>問題ありません。バンドル自体のデータファイル (2 GiB を超える場合に使用) は 64 KiB 境界に揃えて書き出されます。</translation>
    </message>
    <message>
        <source>Remove the key (only location, offset, length and checksum are allowed), or re-export the model.</source>
        <translation>このキーを取り除いてください（使えるのは location、offset、length、checksum だけです）。または、モデルをもう一度エクスポートしてください。</translation>
    </message>
    <message>
        <source>Check file permissions.</source>
        <translation>ファイルのアクセス権を確認してください。</translation>
    </message>
    <message>
        <source>It changed since it was checked; run the command again.</source>
        <translation>確認した後に変更されました。コマンドをもう一度実行してください。</translation>
    </message>
    <message>
        <source>Re-export the model for a lower opset, or target a newer ORT.</source>
        <translation>演算子がそのランタイムには新しすぎます。バンドル タブでより新しい対象 ONNX Runtime を選ぶか、古い opset でモデルをエクスポートしてください。</translation>
    </message>
    <message>
        <source>They still ship in the release: export the model without them (e.g. with onnx.utils.extract_model or onnxsim) to make it smaller.</source>
        <translation>リリースには含まれたままです。小さくするには、これらを除いてモデルをエクスポートしてください（onnx.utils.extract_model や onnxsim など）。</translation>
    </message>
    <message>
        <source>It still ships in the release: export the model without it (e.g. with onnx.utils.extract_model or onnxsim) to make it smaller.</source>
        <translation>リリースには含まれたままです。小さくするには、これを除いてモデルをエクスポートしてください（onnx.utils.extract_model や onnxsim など）。</translation>
    </message>
    <message>
        <source>Check the path; quote it if it contains spaces.</source>
        <translation>パスを確認してください。空白を含む場合は引用符で囲んでください。</translation>
    </message>
    <message>
        <source>Check the path and its permissions.</source>
        <translation>パスとそのアクセス許可を確認してください。</translation>
    </message>
    <message>
        <source>Give the path of a .onnx/.ort file or of the folder that holds it.</source>
        <translation>.onnx/.ort ファイル、またはそれを含むフォルダーのパスを指定してください。</translation>
    </message>
    <message>
        <source>Give the path of a NAME-VERSION.zip bundle.</source>
        <translation>NAME-VERSION.zip バンドルのパスを指定してください。</translation>
    </message>
    <message>
        <source>Give the model file itself, or a folder that contains one .onnx file.</source>
        <translation>モデルファイルそのもの、または .onnx ファイルを 1 つだけ含むフォルダーを指定してください。</translation>
    </message>
    <message>
        <source>Give the path of the one you mean.</source>
        <translation>目的のファイルのパスを指定してください。</translation>
    </message>
    <message>
        <source>{opt:data_dir} must name the folder that holds the external data files.</source>
        <translation>{opt:data_dir} には、外部データファイルを含むフォルダーを指定してください。</translation>
    </message>
    <message>
        <source>Check the model folder.</source>
        <translation>モデルのフォルダーを確認してください。</translation>
    </message>
    <message>
        <source>Set {env_var}, or drop the password option for an unencrypted key.</source>
        <translation>{env_var} を設定するか、暗号化されていない鍵ならパスワードのオプションを外してください。</translation>
    </message>
    <message>
        <source>Give the private key file (PEM) made by &apos;onnxpack keygen&apos; or openssl.</source>
        <translation>&apos;onnxpack keygen&apos; または openssl で作った秘密鍵ファイル (PEM) を指定してください。</translation>
    </message>
    <message>
        <source>Give the publisher&apos;s public key file (NAME.pub).</source>
        <translation>発行元の公開鍵ファイル (NAME.pub) を指定してください。</translation>
    </message>
    <message>
        <source>Give OLD.zip or its manifest.</source>
        <translation>前回のバンドル (.zip) またはそのマニフェストを指定してください。</translation>
    </message>
    <message>
        <source>Run `onnxpack verify` on it for details.</source>
        <translation>詳しくは `onnxpack verify` で検証してください。</translation>
    </message>
    <message>
        <source>Check its permissions.</source>
        <translation>アクセス許可を確認してください。</translation>
    </message>
    <message>
        <source>Give a .npy, .npz or .pb file.</source>
        <translation>.npy、.npz、.pb のいずれかのファイルを指定してください。</translation>
    </message>
    <message>
        <source>Check the file permissions.</source>
        <translation>ファイルのアクセス許可を確認してください。</translation>
    </message>
    <message>
        <source>The input file changed since the recorded run; use the original file.</source>
        <translation>記録された実行の後に入力ファイルが変わりました。元のファイルを使ってください。</translation>
    </message>
    <message>
        <source>Convert it, e.g. numpy.save(path, array.astype(&apos;{dtype}&apos;)).</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Save the input with numpy.save() or onnx.numpy_helper.from_array(...).SerializeToString().</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Save the tensor with its data inline.</source>
        <translation>テンソルをデータ込みで（インラインで）保存してください。</translation>
    </message>
    <message>
        <source>Give a .npy/.npz file or an ONNX TensorProto .pb file such as test_data_set_0/input_0.pb.</source>
        <translation>.npy/.npz ファイル、または test_data_set_0/input_0.pb のような ONNX TensorProto の .pb ファイルを指定してください。</translation>
    </message>
    <message>
        <source>Save the tensor again with onnx.numpy_helper.from_array().</source>
        <translation>onnx.numpy_helper.from_array() でテンソルを保存し直してください。</translation>
    </message>
    <message>
        <source>Object (pickled) arrays are refused for safety; save plain arrays with numpy.savez().</source>
        <translation>オブジェクト（pickle）配列は安全のため受け付けません。numpy.savez() で通常の配列として保存してください。</translation>
    </message>
    <message>
        <source>Object (pickled) arrays are refused for safety; save a plain array with numpy.save().</source>
        <translation>オブジェクト（pickle）配列は安全のため受け付けません。numpy.save() で通常の配列として保存してください。</translation>
    </message>
    <message>
        <source>Name the member: {opt:input} {name}={path}:{member}</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Use one of the listed member names after the colon.</source>
        <translation>コロンの後には、一覧にあるメンバー名のどれかを指定してください。</translation>
    </message>
    <message>
        <source>Check the path (relative paths are relative to the current folder).</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Reshape the array to the model&apos;s input shape.</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Make the inputs agree on {dim}, or drop {opt:dim} {dim}.</source>
        <translation>入力の {dim} をそろえるか、{opt:dim} {dim} を外してください。</translation>
    </message>
    <message>
        <source>Give an array of the model&apos;s input shape.</source>
        <translation>モデルの入力の形をした配列を指定してください。</translation>
    </message>
    <message>
        <source>Check the spelling; names are case-sensitive.</source>
        <translation>綴りを確認してください。名前は大文字と小文字を区別します。</translation>
    </message>
    <message>
        <source>Only tensor inputs can be supplied.</source>
        <translation>与えられるのはテンソルの入力だけです。</translation>
    </message>
    <message>
        <source>Use {opt:input} {name}=FILE.npy with an array of the initializer&apos;s shape.</source>
        <translation>初期化子と同じ形の配列で {opt:input} {name}=FILE.npy を指定してください。</translation>
    </message>
    <message>
        <source>Give a value {name} can hold.</source>
        <translation>{name} が保持できる値を指定してください。</translation>
    </message>
    <message>
        <source>This is a bug in onnxpack; please report it with the command you ran (set ONNXPACK_DEBUG=1 to see the traceback).</source>
        <translation>onnxpack の不具合です。実行したコマンドを添えて報告してください (ONNXPACK_DEBUG=1 を設定するとトレースバックが表示されます)。</translation>
    </message>
    <message>
        <source>This is a bug in onnxpack; please report it with the model&apos;s structure (no weights needed).</source>
        <translation>onnxpack の不具合です。モデルの構造を添えて報告してください (重みは不要です)。</translation>
    </message>
    <message>
        <source>Please report this bug.</source>
        <translation>この不具合を報告してください。</translation>
    </message>
    <message>
        <source>`onnxpack bundle --fix-ir` lowers ir_version in the released copy.</source>
        <translation>`onnxpack bundle --fix-ir` でリリースするコピーの ir_version を下げられます。</translation>
    </message>
    <message>
        <source>{opt:fix_ir}.</source>
        <translation>{opt:fix_ir}。</translation>
    </message>
    <message>
        <source>Convert the model with a current exporter or onnx.version_converter.</source>
        <translation>最新のエクスポーターか onnx.version_converter でモデルを変換してください。</translation>
    </message>
    <message>
        <source>Drop {opt:layout} keep to ship a merged, changed copy, or drop the option that changes it.</source>
        <translation>変更を加えた統合コピーを同梱するには {opt:layout} keep を外すか、モデルを変更するオプションを外してください。</translation>
    </message>
    <message>
        <source>Drop one of them.</source>
        <translation>どちらか一方を外してください。</translation>
    </message>
    <message>
        <source>To ship the layout that loads cheaper, bundle with {opt:layout} external (or {opt:layout} keep for the source&apos;s own files).</source>
        <translation>読み込みの軽い形式で配布するには {opt:layout} external でバンドルしてください（元のファイルのままなら {opt:layout} keep）。</translation>
    </message>
    <message>
        <source>The manifest was damaged or edited by hand; rebuild the bundle with `onnxpack bundle`.</source>
        <translation>マニフェストが壊れたか手で編集されています。`onnxpack bundle` でバンドルを作り直してください。</translation>
    </message>
    <message>
        <source>This is not an onnxpack bundle, or its manifest was removed.</source>
        <translation>これは onnxpack のバンドルではないか、マニフェストが取り除かれています。</translation>
    </message>
    <message>
        <source>Give a bundle made by `onnxpack bundle` or its manifest.json.</source>
        <translation>`onnxpack bundle` で作ったバンドルか、その manifest.json を指定してください。</translation>
    </message>
    <message>
        <source>This bundle was made by another tool or a newer onnxpack.</source>
        <translation>このバンドルはほかのツールか、より新しい onnxpack で作られています。</translation>
    </message>
    <message>
        <source>This is not an onnxpack manifest.</source>
        <translation>これは onnxpack のマニフェストではありません。</translation>
    </message>
    <message>
        <source>`onnxpack merge` writes the self-contained single file.</source>
        <translation>バンドル時に自己完結した 1 つの .onnx ファイルとして書き出します。操作は不要です。</translation>
    </message>
    <message>
        <source>This is a bug in onnxpack&apos;s merge (or a source file changed while it was read); please report it. Nothing was written.</source>
        <translation>onnxpack の結合の不具合です（または読み込み中に元のファイルが変わりました）。報告してください。</translation>
    </message>
    <message>
        <source>This is a bug in onnxpack&apos;s merge; please report it. Nothing was written.</source>
        <translation>onnxpack のマージの不具合です。報告してください。何も書き込まれていません。</translation>
    </message>
    <message>
        <source>onnxpack keeps it as .onnx + one aligned .data file (`onnxpack merge --layout external`).</source>
        <translation>2 GiB を超えると、バンドルは重みをモデルの隣の境界揃えされた .onnx.data 1 つに保持します。操作は不要です。</translation>
    </message>
    <message>
        <source>Use {opt:layout} external (or auto): the model then keeps one aligned data file beside it.</source>
        <translation>{opt:layout} external（または auto）を使ってください。モデルは整列した 1 つのデータ ファイルを隣に持つ形になります。</translation>
    </message>
    <message>
        <source>The file is corrupted or was not written by an ONNX exporter; export the model again.</source>
        <translation>ファイルが壊れているか、ONNX のエクスポーターで書かれたものではありません。モデルをエクスポートし直してください。</translation>
    </message>
    <message>
        <source>This is not an ONNX model (random or foreign bytes can parse as an empty protobuf); export the model again.</source>
        <translation>これは ONNX モデルではありません (無関係なバイト列が空の protobuf として読めてしまうことがあります)。モデルをもう一度エクスポートしてください。</translation>
    </message>
    <message>
        <source>The export or copy was probably interrupted; export the model again.</source>
        <translation>エクスポートまたはコピーが途中で中断されたようです。モデルをもう一度エクスポートしてください。</translation>
    </message>
    <message>
        <source>The file may be truncated, corrupted, or nested deeper than protobuf allows; export it again.</source>
        <translation>ファイルが途中で切れているか、壊れているか、protobuf の許す深さを超えて入れ子になっている可能性があります。もう一度エクスポートしてください。</translation>
    </message>
    <message>
        <source>Export the model again, or check it is really an ONNX file.</source>
        <translation>モデルをもう一度エクスポートするか、本当に ONNX ファイルかどうか確認してください。</translation>
    </message>
    <message>
        <source>Give the .onnx model file that uses this data; keep the data file beside it (or pass {opt:data_dir}).</source>
        <translation>このデータを使う .onnx モデル ファイルを指定し、データ ファイルはその隣に置いてください（または {opt:data_dir} を指定します）。</translation>
    </message>
    <message>
        <source>Rename it to .ort; ORT-format models can be inspected and smoke-run but not merged or re-bundled — give the original .onnx for that.</source>
        <translation>元の .onnx モデルを開いてください。.ort も同梱するには「ORT 形式（.ort）版も同梱する」にチェックを入れてください。</translation>
    </message>
    <message>
        <source>Give the .onnx model.</source>
        <translation>.onnx モデルを指定してください。</translation>
    </message>
    <message>
        <source>Give the original .onnx (use {opt:ort_format} to add an .ort variant).</source>
        <translation>元の .onnx を指定してください（.ort 版を加えるには {opt:ort_format} を使います）。</translation>
    </message>
    <message>
        <source>Give the original .onnx model.</source>
        <translation>元の .onnx モデルを指定してください。</translation>
    </message>
    <message>
        <source>Textual ONNX (onnx.printer / .onnxtxt) is not supported; save the model with onnx.save().</source>
        <translation>テキスト形式の ONNX には対応していません。onnx.save() でモデルを保存してください。</translation>
    </message>
    <message>
        <source>If it is an onnxpack bundle, use `onnxpack verify`; otherwise extract the model first.</source>
        <translation>onnxpack のバンドルなら、開いて検証してください。そうでなければ、先にモデルを取り出してください。</translation>
    </message>
    <message>
        <source>Protobuf cannot parse it. Re-export with external data (PyTorch: external_data=True).</source>
        <translation>protobuf では解析できません。外部データ付きでエクスポートし直してください（PyTorch: external_data=True）。</translation>
    </message>
    <message>
        <source>The archive is truncated or damaged; build it again.</source>
        <translation>ファイルが壊れているか、読み込み中に書き込まれました。もう一度試してください。</translation>
    </message>
    <message>
        <source>Run the command again.</source>
        <translation>コマンドをもう一度実行してください。</translation>
    </message>
    <message>
        <source>Drop {opt:set_model_version}, or use a version with smaller components.</source>
        <translation>「リリース バージョンをモデルの model_version に書き込む」のチェックを外すか、より小さいバージョン番号を使ってください。</translation>
    </message>
    <message>
        <source>Release managers reading model_version see only MAJOR.MINOR.PATCH.</source>
        <translation>model_version を読むリリース担当者には MAJOR.MINOR.PATCH だけが見えます。</translation>
    </message>
    <message>
        <source>Fix the model where the message points (or re-export it); ONNX Runtime may refuse it too.</source>
        <translation>メッセージが示す箇所を直してください（またはエクスポートし直してください）。ONNX Runtime もこのモデルを拒否するかもしれません。</translation>
    </message>
    <message>
        <source>Each domain may appear once in opset_import; re-export the model.</source>
        <translation>opset_import には各ドメインを 1 回しか書けません。モデルをエクスポートし直してください。</translation>
    </message>
    <message>
        <source>The smoke run shows whether the installed ONNX Runtime runs it; to be safe on other releases, convert it to a newer opset (onnx.version_converter.convert_version) and re-check.</source>
        <translation>インストールされている ONNX Runtime で動くかどうかはスモーク実行で分かります。他のリリースでも安全にするには、新しい opset に変換して（onnx.version_converter.convert_version）もう一度チェックしてください。</translation>
    </message>
    <message>
        <source>Check that the model loads (`onnxpack smoke MODEL`); custom operators cannot be converted.</source>
        <translation>スモーク実行でモデルが読み込めるか確認してください。カスタム演算子は変換できません。</translation>
    </message>
    <message>
        <source>See the converter log in the details.</source>
        <translation>詳細の変換ログを見てください。</translation>
    </message>
    <message>
        <source>Keep the original .onnx for merging, checking and re-bundling.</source>
        <translation>結合・確認・再バンドルのために、元の .onnx を残しておいてください。</translation>
    </message>
    <message>
        <source>Drop {opt:ort_format}, or report the model to the ONNX Runtime project.</source>
        <translation>「ORT 形式（.ort）の版も含める」をオフにするか、このモデルを ONNX Runtime のプロジェクトに報告してください。</translation>
    </message>
    <message>
        <source>Drop {opt:ort_format} for this model.</source>
        <translation>このモデルでは「ORT 形式（.ort）の版も含める」をオフにしてください。</translation>
    </message>
    <message>
        <source>Run `onnxpack check` on the model; it may need a newer ONNX Runtime or be malformed.</source>
        <translation>モデルに `onnxpack check` を実行してください。より新しい ONNX Runtime が必要か、モデルが壊れている可能性があります。</translation>
    </message>
    <message>
        <source>The model is not at fault: it needs the locale {locale} (a StringNormalizer&apos;s), which this machine does not have. Install it (Debian/Ubuntu: add it to /etc/locale.gen and run locale-gen) and run again; every machine that runs the model needs it too.</source>
        <translation>モデルに問題はありません。モデル（StringNormalizer）がロケール {locale} を必要としていますが、このマシンにはありません。ロケールをインストールして（Debian/Ubuntu: /etc/locale.gen に追加して locale-gen を実行）やり直してください。モデルを実行するすべてのマシンにも必要です。</translation>
    </message>
    <message>
        <source>The model uses operator {op} of domain &apos;{domain}&apos;, an ONNX training operator that ONNX Runtime&apos;s inference packages do not implement; export the model for inference (without training operators).</source>
        <translation>モデルはドメイン「{domain}」の演算子 {op} を使っています。これは ONNX の学習用演算子で、ONNX Runtime の推論用パッケージには実装されていません。学習用演算子なしの推論用モデルとしてエクスポートしてください。</translation>
    </message>
    <message>
        <source>The model uses operator {op} of domain &apos;{domain}&apos;, an ONNX preview operator this ONNX Runtime does not implement: a newer ONNX Runtime may, or re-export the model without it.</source>
        <translation>モデルはドメイン「{domain}」の演算子 {op} を使っています。これは ONNX のプレビュー演算子で、この ONNX Runtime には実装されていません。より新しい ONNX Runtime なら実装されている可能性があります。またはこの演算子なしでモデルをエクスポートし直してください。</translation>
    </message>
    <message>
        <source>The model uses operator {op} of domain &apos;{domain}&apos;, which this ONNX Runtime does not know at the model&apos;s opset: a newer ONNX Runtime may, or re-export the model with a lower opset.</source>
        <translation>モデルはドメイン「{domain}」の演算子 {op} を使っていますが、この ONNX Runtime はモデルの opset でのこの演算子を知りません。より新しい ONNX Runtime なら対応している可能性があります。または低い opset でモデルをエクスポートし直してください。</translation>
    </message>
    <message>
        <source>The model uses operator {op} of domain &apos;{domain}&apos;, which this ONNX Runtime does not implement. It needs a custom-op library (onnxpack does not load those) or a re-export with standard ONNX operators.</source>
        <translation>モデルはドメイン「{domain}」の演算子 {op} を使っていますが、この ONNX Runtime には実装されていません。カスタム演算子ライブラリ（onnxpack は読み込みません）が必要です。または標準の ONNX 演算子でエクスポートし直してください。</translation>
    </message>
    <message>
        <source>The model uses an operator this ONNX Runtime does not implement. It needs a custom-op library (onnxpack does not load those) or a re-export with standard ONNX operators.</source>
        <translation>モデルはこの ONNX Runtime に実装されていない演算子を使っています。カスタム演算子ライブラリ（onnxpack は読み込みません）が必要です。または標準の ONNX 演算子でエクスポートし直してください。</translation>
    </message>
    <message>
        <source>The model uses {op} of opset {opset}, older than ONNX Runtime implements (opset 7 and newer): convert it to a newer opset (onnx.version_converter.convert_version).</source>
        <translation>モデルは opset {opset} の {op} を使っていますが、ONNX Runtime が実装しているのは opset 7 以降です。新しい opset に変換してください（onnx.version_converter.convert_version）。</translation>
    </message>
    <message>
        <source>ONNX Runtime&apos;s CPU provider has no kernel for {op} (opset {opset}) with the element types this model uses: a newer ONNX Runtime may have one; otherwise re-export the model with supported types (e.g. float instead of float8, int4 or bfloat16).</source>
        <translation>ONNX Runtime の CPU プロバイダーには、このモデルが使う要素型での {op}（opset {opset}）のカーネルがありません。より新しい ONNX Runtime にはある可能性があります。なければ対応する型でモデルをエクスポートし直してください（例: float8、int4、bfloat16 の代わりに float）。</translation>
    </message>
    <message>
        <source>The model&apos;s IR version is newer than this ONNX Runtime reads: use a newer ONNX Runtime, or `onnxpack bundle --target-ort X.Y --fix-ir` if `onnxpack check` says lowering it is enough.</source>
        <translation>モデルの IR バージョンがこの ONNX Runtime で読めるものより新しいです。より新しい ONNX Runtime を使うか、`onnxpack check` が下げれば足りると言う場合は `onnxpack bundle --target-ort X.Y --fix-ir` を使ってください。</translation>
    </message>
    <message>
        <source>The model&apos;s opset is newer than this ONNX Runtime supports; run `onnxpack check` for the details.</source>
        <translation>モデルの opset がこの ONNX Runtime の対応範囲より新しいです。詳しくは `onnxpack check` を実行してください。</translation>
    </message>
    <message>
        <source>The file is not a valid ONNX model (damaged or truncated); export it again.</source>
        <translation>このファイルは有効な ONNX モデルではありません（破損しているか途中で切れています）。エクスポートし直してください。</translation>
    </message>
    <message>
        <source>ONNX Runtime&apos;s type and shape inference rejects the model: its graph is inconsistent. Run `onnxpack check` on it (the onnx checker names the node) and fix or re-export the model.</source>
        <translation>ONNX Runtime の型・形状推論がモデルを拒否しました。グラフに矛盾があります。モデルに `onnxpack check` を実行し（onnx チェッカーがノードを示します）、修正するかエクスポートし直してください。</translation>
    </message>
    <message>
        <source>This ONNX Runtime does not support what the model asks of an operator (the message says what): a newer ONNX Runtime may, or re-export the model without it (e.g. an RNN with layout=0).</source>
        <translation>この ONNX Runtime は、モデルが演算子に求めている機能（メッセージに記載）に対応していません。より新しい ONNX Runtime なら対応している可能性があります。またはその機能なしでモデルをエクスポートし直してください（例: layout=0 の RNN）。</translation>
    </message>
    <message>
        <source>The file may be damaged or made by a newer ONNX Runtime than the one installed; regenerate it from the .onnx model.</source>
        <translation>ファイルが壊れているか、インストール済みより新しい ONNX Runtime で作られた可能性があります。.onnx のモデルから作り直してください。</translation>
    </message>
    <message>
        <source>Only a newer ONNX Runtime can load it; the smoke run shows whether the installed one does. To reach older runtimes, re-export with a lower opset.</source>
        <translation>読み込めるのは新しい ONNX Runtime だけです。インストール済みのもので読み込めるかはスモーク実行でわかります。古いランタイムに対応するには、低いオペセットでエクスポートし直してください。</translation>
    </message>
    <message>
        <source>Smoke-run the model with that ONNX Runtime release to be sure.</source>
        <translation>確かめるには、その ONNX Runtime のリリースでモデルをスモーク実行してください。</translation>
    </message>
    <message>
        <source>ORT-format models generally load only in the ORT release that wrote them or newer.</source>
        <translation>ORT 形式のモデルは一般に、それを書き出した ORT リリース以降でしか読み込めません。</translation>
    </message>
    <message>
        <source>Re-export for a lower opset / IR, or require a newer ONNX Runtime.</source>
        <translation>より低い opset / IR でエクスポートし直すか、より新しい ONNX Runtime を必須にしてください。</translation>
    </message>
    <message>
        <source>`onnxpack bundle --target-ort {version} --fix-ir` retargets the released copy ({summary}); add {opt:prove_ort} {version} to run it on that release.</source>
        <translation>`onnxpack bundle --target-ort {version} --fix-ir` でリリースするコピーを再ターゲットできます（{summary}）。そのリリースで実行して確かめるには {opt:prove_ort} {version} を加えてください。</translation>
    </message>
    <message>
        <source>`onnxpack bundle --target-ort {version} --fix-ir` writes ir_version {ir}.</source>
        <translation>`onnxpack bundle --target-ort {version} --fix-ir` で ir_version {ir} として書き出せます。</translation>
    </message>
    <message>
        <source>Re-export for a lower opset or IR, choose a newer Target ONNX Runtime in the Bundle tab, or {opt:fix_ir}.</source>
        <translation>より低い opset または IR で再エクスポートするか、バンドル タブでより新しい対象 ONNX Runtime を選ぶか、{opt:fix_ir}。</translation>
    </message>
    <message>
        <source>Raise the limit with {opt:timeout} SECONDS.</source>
        <translation>{opt:timeout} SECONDS で上限を引き上げてください。</translation>
    </message>
    <message>
        <source>Ship models this large in ONNX format with external data instead of the ORT format.</source>
        <translation>これほど大きなモデルは、ORT 形式ではなく外部データ付きの ONNX 形式で配布してください。</translation>
    </message>
    <message>
        <source>Choose a folder you can write to.</source>
        <translation>書き込みできるフォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Give a folder (created if missing), e.g. -o dist.</source>
        <translation>フォルダーを指定してください (なければ作成されます)。例: -o dist</translation>
    </message>
    <message>
        <source>Give a folder (created if missing), e.g. -o dist, or the file to write, e.g. -o dist/NAME{ext}.</source>
        <translation>フォルダー (なければ作成されます。例: -o dist) か、書き出すファイル (例: -o dist/NAME{ext}) を指定してください。</translation>
    </message>
    <message>
        <source>Give a folder (created if missing), e.g. -o dist. The file names come from {opt:name}.</source>
        <translation>フォルダーを指定してください (なければ作成されます)。例: -o dist。ファイル名は {opt:name} から決まります。</translation>
    </message>
    <message>
        <source>Choose an output name without &apos;..&apos; (the data file is named after it: NAME.onnx.data).</source>
        <translation>&apos;..&apos;、スラッシュ、&apos;:&apos; を含まない出力名を選んでください。</translation>
    </message>
    <message>
        <source>Use a plain file name, e.g. -o dist/NAME-1.0.0{ext}.</source>
        <translation>普通のファイル名を使ってください。例: -o dist/NAME-1.0.0{ext}</translation>
    </message>
    <message>
        <source>Rename the output.</source>
        <translation>出力の名前を変えてください。</translation>
    </message>
    <message>
        <source>Remove it or pass {opt:force} to replace it.</source>
        <translation>削除するか、{opt:force} で置き換えてください。</translation>
    </message>
    <message>
        <source>Remove it or choose another output folder.</source>
        <translation>削除するか、別の出力フォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Choose another {opt:name} or folder, or pass {opt:force} to replace it.</source>
        <translation>別の {opt:name} かフォルダーを選ぶか、{opt:force} で置き換えてください。</translation>
    </message>
    <message>
        <source>Choose a new folder.</source>
        <translation>新しいフォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Give a new or empty folder; onnxpack does not mix its output with other files.</source>
        <translation>新しいフォルダーか空のフォルダーを指定してください。onnxpack は出力をほかのファイルと混ぜません。</translation>
    </message>
    <message>
        <source>Choose another version or output folder, or {opt:force}.</source>
        <translation>別のバージョンか出力フォルダーを選ぶか、{opt:force}。</translation>
    </message>
    <message>
        <source>Write the output beside the folder (e.g. -o ../dist), or give the model file itself instead of its folder.</source>
        <translation>出力はフォルダーの外に書き出すか (例: -o ../dist)、フォルダーではなくモデル ファイルそのものを指定してください。</translation>
    </message>
    <message>
        <source>Give a file path.</source>
        <translation>ファイルのパスを指定してください。</translation>
    </message>
    <message>
        <source>Give the path of the .onnx file to write.</source>
        <translation>書き出す .onnx ファイルのパスを指定してください。</translation>
    </message>
    <message>
        <source>Give a folder.</source>
        <translation>フォルダーを指定してください。</translation>
    </message>
    <message>
        <source>Choose another output path; onnxpack never modifies its inputs.</source>
        <translation>別の出力を選んでください。onnxpack は入力を変更しません。</translation>
    </message>
    <message>
        <source>Remove the link or choose another output name.</source>
        <translation>リンクを削除するか、別の出力名を選んでください。</translation>
    </message>
    <message>
        <source>Create it first.</source>
        <translation>［バンドル］タブで既存の出力フォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Give a folder with -o.</source>
        <translation>-o でフォルダーを指定してください。</translation>
    </message>
    <message>
        <source>Free some space or choose another output folder.</source>
        <translation>空き容量を増やすか、別の出力フォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Check the folder exists and is writable.</source>
        <translation>フォルダーが存在し、書き込めることを確認してください。</translation>
    </message>
    <message>
        <source>Keep the output folder in place until the merge ends, then run it again.</source>
        <translation>マージが終わるまで出力フォルダーをそのままにして、もう一度実行してください。</translation>
    </message>
    <message>
        <source>Keep the output folder in place until the bundle is done, then run it again.</source>
        <translation>バンドルが終わるまで出力フォルダーをそのままにして、もう一度実行してください。</translation>
    </message>
    <message>
        <source>Choose an output folder you can write to.</source>
        <translation>書き込める出力フォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Give the path of a regular file (or of a new one) for the merged model.</source>
        <translation>マージしたモデルの書き出し先として、通常のファイル（または新しいファイル）のパスを指定してください。</translation>
    </message>
    <message>
        <source>Check the permissions of the file and its folder, or choose another.</source>
        <translation>ファイルとそのフォルダーのアクセス許可を確認するか、別の場所を選んでください。</translation>
    </message>
    <message>
        <source>Give the real path instead of a link.</source>
        <translation>リンクではなく実際のパスを指定してください。</translation>
    </message>
    <message>
        <source>Shorten the name: most file systems allow 255 bytes per name (a Japanese character takes 3).</source>
        <translation>名前を短くしてください。多くのファイル システムでは 1 つの名前は 255 バイトまでです (日本語の 1 文字は 3 バイト)。</translation>
    </message>
    <message>
        <source>Check the permissions of the file and its folder.</source>
        <translation>ファイルとそのフォルダーのアクセス許可を確認してください。</translation>
    </message>
    <message>
        <source>Choose an output folder on a writable disk.</source>
        <translation>書き込み可能なディスク上の出力フォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Give the NAME-VERSION.zip of the release before this one, e.g. {opt:previous} dist/NAME-1.0.0.zip.</source>
        <translation>バンドルタブの「前回のバンドル」で、このひとつ前のリリースの .zip を選んでください。</translation>
    </message>
    <message>
        <source>Check the internet connection and try again; the details show pip&apos;s output.</source>
        <translation>インターネット接続を確認して、もう一度試してください。詳細に pip の出力があります。</translation>
    </message>
    <message>
        <source>Try again.</source>
        <translation>もう一度試してください。</translation>
    </message>
    <message>
        <source>Give the sizes the model needs with {opt:dim} NAME=VALUE.</source>
        <translation>バンドルタブの「シンボリック次元」で、モデルに必要なサイズを指定してください。</translation>
    </message>
    <message>
        <source>{opt:prove_ort} downloads each release&apos;s official wheel once (then it is cached): connect to the internet, set ONNXPACK_PYPI_URL to a reachable PyPI mirror, or leave {opt:prove_ort} out.</source>
        <translation>インターネットに接続してください（各リリースは初回だけダウンロードされ、以後はキャッシュされます）。または ONNX Runtime リリースでの検証をやめてください。</translation>
    </message>
    <message>
        <source>Set ONNXPACK_PYPI_URL to a PyPI mirror with the JSON API, or unset it.</source>
        <translation>ONNXPACK_PYPI_URL を JSON API のある PyPI ミラーにするか、設定を外してください。</translation>
    </message>
    <message>
        <source>Try again later, or set ONNXPACK_PYPI_URL to a PyPI mirror.</source>
        <translation>後でもう一度試すか、ONNXPACK_PYPI_URL を PyPI ミラーに設定してください。</translation>
    </message>
    <message>
        <source>Check the internet connection (or ONNXPACK_PYPI_URL) and try again.</source>
        <translation>インターネット接続（または ONNXPACK_PYPI_URL）を確認して、もう一度試してください。</translation>
    </message>
    <message>
        <source>Set ONNXPACK_PYTHON to a CPython 3.10+ executable, or run onnxpack installed with pip.</source>
        <translation>ONNXPACK_PYTHON に Python 3.10 以降のインタープリターを設定するか、pip でインストールした onnxpack を使ってください。</translation>
    </message>
    <message>
        <source>Give a CPython interpreter with pip.</source>
        <translation>pip のある CPython インタープリターを指定してください。</translation>
    </message>
    <message>
        <source>Prove on {carried} alone ({opt:prove_ort} {carried}), or set ONNXPACK_PYTHON to a CPython 3.10+ executable with pip (onnxpack makes the environments with it), or run onnxpack installed with pip.</source>
        <translation>{carried} だけで検証するか（{opt:prove_ort} {carried}）、ONNXPACK_PYTHON に pip のある CPython 3.10 以降の実行ファイルを設定するか（onnxpack はそれで環境を作ります）、pip でインストールした onnxpack を使ってください。</translation>
    </message>
    <message>
        <source>Give a released version, e.g. 1.16.3 (see https://pypi.org/project/onnxruntime/#history).</source>
        <translation>リリース済みのバージョンを指定してください（例: 1.16.3）。</translation>
    </message>
    <message>
        <source>Prove a release onnxpack knows (a MAJOR.MINOR, newest or auto picks one), or update onnxpack.</source>
        <translation>onnxpack が知っているリリースで検証してください（MAJOR.MINOR、newest、auto のいずれかで選べます）。または onnxpack を更新してください。</translation>
    </message>
    <message>
        <source>Prove another release (CPython 3.11 wheels exist from 1.15.0 on), or run onnxpack on a Python that release has wheels for.</source>
        <translation>この Python 向けのホイールがあるリリースを選んでください（Python 3.11 では 1.15.0 以降）。</translation>
    </message>
    <message>
        <source>Official CPython 3.11 wheels exist from onnxruntime 1.15.0 on (3.10: 1.12.0, 3.12: 1.16.2); prove an available release, or run onnxpack on another Python.</source>
        <translation>CPython 3.11 の公式ホイールは onnxruntime 1.15.0 以降にあります（3.10: 1.12.0、3.12: 1.16.2）。入手できるリリースを証明するか、別の Python で onnxpack を実行してください。</translation>
    </message>
    <message>
        <source>Retarget it for the oldest of them ({opt:target_ort} X.Y {opt:fix_ir}), or prove newer releases only.</source>
        <translation>それらのうち最も古いリリースに向けてモデルを変換する（目標ランタイムに設定し、IR バージョンを下げる）か、より新しいリリースだけで検証してください。</translation>
    </message>
    <message>
        <source>Do not ship the model for that release without checking the difference matters; report it to the ONNX Runtime project if it should not.</source>
        <translation>そのリリース向けに配布する前に、この差が問題にならないか確認してください。</translation>
    </message>
    <message>
        <source>`onnxpack bundle {opt:target_ort} {minor} {opt:fix_ir} {opt:prove_ort} {version}` retargets the released copy and proves it on that release.</source>
        <translation>そのリリースを目標ランタイムにして IR バージョンを下げてバンドルしてください。onnxpack が配布用のコピーを変換し、検証します。</translation>
    </message>
    <message>
        <source>Run `onnxpack smoke` on the model to see why.</source>
        <translation>モデルをスモーク実行して、失敗する理由を確認してください。</translation>
    </message>
    <message>
        <source>Try again (a proxy may have altered it); if it repeats, do not trust that network path.</source>
        <translation>もう一度試してください。繰り返す場合は、このネットワーク接続を信用しないでください。</translation>
    </message>
    <message>
        <source>Use the official index (unset ONNXPACK_PYPI_URL).</source>
        <translation>公式のインデックスを使ってください（ONNXPACK_PYPI_URL の設定を外します）。</translation>
    </message>
    <message>
        <source>Use a recipe written by onnxpack.</source>
        <translation>onnxpack が書いた手順を使ってください。</translation>
    </message>
    <message>
        <source>Give a JSON file written by onnxpack {opt:json}.</source>
        <translation>onnxpack {opt:json} が書き出した JSON ファイルを指定してください。</translation>
    </message>
    <message>
        <source>A bundle&apos;s recipe may only name files inside it: the bundle was not made by onnxpack or was altered. Do not trust it.</source>
        <translation>このバンドルは onnxpack で作られたものでないか、改変されています。信頼しないでください。</translation>
    </message>
    <message>
        <source>Give the sizes/inputs the model needs with {opt:dim}/{opt:input}, or pass {opt:no_smoke}.</source>
        <translation>モデルに必要なサイズや入力を {opt:dim}/{opt:input} で指定するか、{opt:no_smoke} を付けてください。</translation>
    </message>
    <message>
        <source>Give files beside the model (or in folders below it), or bundle the whole folder: `onnxpack bundle DIR`.</source>
        <translation>モデルと同じフォルダー (またはその下のフォルダー) にあるファイルを指定するか、フォルダー全体をバンドルしてください: `onnxpack bundle DIR`</translation>
    </message>
    <message>
        <source>Check the path given to {opt:asset}.</source>
        <translation>{opt:asset} に指定したパスを確認してください。</translation>
    </message>
    <message>
        <source>Give the files the app reads beside the model with {opt:asset}.</source>
        <translation>アプリがモデルの横で読み込むファイルを {opt:asset} で指定してください。</translation>
    </message>
    <message>
        <source>Give the model file, or bundle the whole folder without {opt:asset}.</source>
        <translation>モデルファイルを指定するか、{opt:asset} なしでフォルダー全体をバンドルしてください。</translation>
    </message>
    <message>
        <source>Rename one of them; apps on case-insensitive file systems would read the wrong one.</source>
        <translation>どちらかの名前を変更してください。大文字と小文字を区別しないファイルシステムでは、アプリが違うファイルを読み込みます。</translation>
    </message>
    <message>
        <source>Copy the data file beside the model (exporters write it next to the .onnx), or re-export the model.</source>
        <translation>データファイルをモデルの横にコピーするか (エクスポーターは .onnx の隣に書き出します)、モデルをエクスポートし直してください。</translation>
    </message>
    <message>
        <source>Move the data file into the release folder beside the model, or re-save the model with its data.</source>
        <translation>データファイルをリリースフォルダー内のモデルの横に移すか、データ込みでモデルを保存し直してください。</translation>
    </message>
    <message>
        <source>A leftover of an earlier export or a renamed model? Delete it, or re-export the model that should read it.</source>
        <translation>以前のエクスポートや名前を変えたモデルの残りではありませんか? 削除するか、それを読むべきモデルをエクスポートし直してください。</translation>
    </message>
    <message>
        <source>Fix the label map or the model; {opt:allow_unmatched_labels} ships them as they are.</source>
        <translation>ラベルマップかモデルを修正してください。{opt:allow_unmatched_labels} を付けるとそのまま同梱します。</translation>
    </message>
    <message>
        <source>Write it as UTF-8 JSON ({{&quot;idx_to_label&quot;: {{&quot;0&quot;: &quot;a&quot;, ...}}}}), or as one label per line in a .txt file.</source>
        <translation>UTF-8 の JSON ({{&quot;idx_to_label&quot;: {{&quot;0&quot;: &quot;a&quot;, ...}}}}) か、1 行に 1 ラベルの .txt ファイルとして書いてください。</translation>
    </message>
    <message>
        <source>Replace the link by the file itself, or leave it out with {opt:exclude}.</source>
        <translation>リンクを実際のファイルに置き換えるか、{opt:exclude} で除外してください。</translation>
    </message>
    <message>
        <source>Fix that model (`onnxpack check {model}`), or leave it out with {opt:exclude}.</source>
        <translation>そのモデルを修正するか (`onnxpack check {model}`)、{opt:exclude} で除外してください。</translation>
    </message>
    <message>
        <source>Give the folder the app reads its models from, or a model file.</source>
        <translation>アプリがモデルを読み込むフォルダー、またはモデルファイルを指定してください。</translation>
    </message>
    <message>
        <source>Rename it (Windows must be able to extract it), or leave it out with {opt:exclude}.</source>
        <translation>名前を変更するか (Windows で展開できる必要があります)、{opt:exclude} で除外してください。</translation>
    </message>
    <message>
        <source>They are listed in the manifest&apos;s &quot;skipped&quot;; {opt:exclude} leaves out more.</source>
        <translation>マニフェストの &quot;skipped&quot; に記載されています。{opt:exclude} でさらに除外できます。</translation>
    </message>
    <message>
        <source>Leave it out with {opt:exclude}.</source>
        <translation>{opt:exclude} で除外してください。</translation>
    </message>
    <message>
        <source>Check that you may read it (and that nothing else holds it open exclusively), or leave it out with {opt:exclude}.</source>
        <translation>読み取り権限があるか (ほかのプログラムが排他的に開いていないか) 確認するか、{opt:exclude} で除外してください。</translation>
    </message>
    <message>
        <source>Re-export the model for the target&apos;s opset.</source>
        <translation>目標ランタイムの opset でモデルをエクスポートし直すか、より新しい目標ランタイムを選んでください。</translation>
    </message>
    <message>
        <source>Types or shapes in the graph are inconsistent; ONNX Runtime runs the same inference at load time and will most likely refuse the model. Re-export it.</source>
        <translation>グラフの型や形状に矛盾があり、ONNX Runtime はおそらくこのモデルを拒否します。エクスポートし直してください。</translation>
    </message>
    <message>
        <source>Harmless: ONNX Runtime infers those shapes with the data at load time.</source>
        <translation>問題ありません。ONNX Runtime は読み込み時にデータを使ってそれらの形状を推論します。</translation>
    </message>
    <message>
        <source>The bundle was signed with another key, or model.sig was altered. Check that you have the publisher&apos;s public key; otherwise get the bundle again.</source>
        <translation>バンドルが作成後に変更されたか、信頼の指定の種類が違います。配布元の鍵または証明書を指定してください。</translation>
    </message>
    <message>
        <source>Pass {opt:trust} CA.pem with the publisher&apos;s root (or intermediate) certificate.</source>
        <translation>発行元のルート（または中間）証明書を {opt:trust} CA.pem で指定してください。</translation>
    </message>
    <message>
        <source>Pass {opt:key} PUBLISHER.pub with the publisher&apos;s public key.</source>
        <translation>発行元の公開鍵を {opt:key} PUBLISHER.pub で指定してください。</translation>
    </message>
    <message>
        <source>The bundle was signed by someone else, or model.sig was altered. Check the identity and issuer the publisher signs with.</source>
        <translation>このバンドルは別の人が署名したか、model.sig が改変されています。発行元が署名に使う ID と発行者を確認してください。</translation>
    </message>
    <message>
        <source>Ask the publisher for a signed bundle; without one, you cannot tell who made it.</source>
        <translation>署名付きのバンドルを配布元に求めてください。署名がなければ、誰が作ったのかを確かめられません。</translation>
    </message>
    <message>
        <source>Sign the folder with model-signing&apos;s default (file) serialization.</source>
        <translation>model-signing の既定（ファイル単位）のシリアライズで署名してください。</translation>
    </message>
    <message>
        <source>Give a PEM certificate file.</source>
        <translation>この秘密鍵に発行された、digitalSignature または codeSigning の用途を持つ PEM 証明書を指定してください。</translation>
    </message>
    <message>
        <source>Give the certificate issued for this private key.</source>
        <translation>この秘密鍵に対して発行された証明書を指定してください。</translation>
    </message>
    <message>
        <source>It needs the digitalSignature key usage or the codeSigning extended key usage.</source>
        <translation>digitalSignature の鍵用途か、codeSigning の拡張鍵用途が必要です。</translation>
    </message>
    <message>
        <source>Give the private key made by &apos;onnxpack keygen&apos; (NAME.key), not the public key.</source>
        <translation>バンドル タブの「署名鍵」で秘密鍵 (.key/.pem) を選んでください。鍵は onnxpack keygen で作成できます。暗号化された鍵はコマンドラインからのみ使えます。</translation>
    </message>
    <message>
        <source>Put its password in an environment variable and name it with {opt:sign_key_password_env}.</source>
        <translation>パスワードを環境変数に入れ、その名前を {opt:sign_key_password_env} で指定してください。</translation>
    </message>
    <message>
        <source>Make one with &apos;onnxpack keygen&apos; or &apos;openssl ecparam -name prime256v1 -genkey&apos;.</source>
        <translation>&apos;onnxpack keygen&apos; または &apos;openssl ecparam -name prime256v1 -genkey&apos; で作成してください。</translation>
    </message>
    <message>
        <source>Use an unencrypted key kept readable by you only, or sign with the key alone.</source>
        <translation>自分だけが読める暗号化していない鍵を使うか、鍵だけで署名してください。</translation>
    </message>
    <message>
        <source>Give the public key (NAME.pub), never the private key.</source>
        <translation>秘密鍵ではなく公開鍵（NAME.pub）を指定してください。</translation>
    </message>
    <message>
        <source>model-signing keys are P-256/384/521.</source>
        <translation>model-signing の鍵は P-256/384/521 です。</translation>
    </message>
    <message>
        <source>Keep the private key readable by you only.</source>
        <translation>秘密鍵は自分だけが読めるようにしてください。</translation>
    </message>
    <message>
        <source>Install the signing support (the OpenSSF model-signing library) from what you installed onnxpack from: in the onnxpack checkout, pip install &apos;.[sign]&apos;; from a wheel, pip install &apos;onnxpack-{version}-py3-none-any.whl[sign]&apos;.</source>
        <translation>署名に対応した、pip でインストールした onnxpack を使ってください（onnxpack のチェックアウトで pip install &apos;.[sign]&apos;）。</translation>
    </message>
    <message>
        <source>Use onnxpack installed with pip, with the signing support: in the onnxpack checkout, pip install &apos;.[sign]&apos;.</source>
        <translation>署名機能付きで pip にインストールした onnxpack を使ってください。onnxpack のチェックアウトで pip install &apos;.[sign]&apos; を実行します。</translation>
    </message>
    <message>
        <source>Check the connection to *.sigstore.dev, or sign with a key ({opt:sign_key}).</source>
        <translation>もう一度試すか、代わりに鍵で署名してください。</translation>
    </message>
    <message>
        <source>Try again, or sign with a key ({opt:sign_key}).</source>
        <translation>もう一度試すか、鍵で署名してください（{opt:sign_key}）。</translation>
    </message>
    <message>
        <source>Connect to the internet (a proxy must allow *.sigstore.dev), or sign offline with a key: onnxpack keygen, then {opt:sign_key}.</source>
        <translation>代わりに鍵で署名してください。バンドル タブの「署名鍵」で選べます。</translation>
    </message>
    <message>
        <source>This is probably a bug in onnxpack; please report it with the details.</source>
        <translation>onnxpack の不具合と思われます。詳細を添えて報告してください。</translation>
    </message>
    <message>
        <source>This can be normal (e.g. a mask); otherwise the model may ignore its input.</source>
        <translation>正常な場合もあります（マスクなど）。そうでなければ、モデルが入力を無視しているのかもしれません。</translation>
    </message>
    <message>
        <source>The model is probably malformed or triggers an ONNX Runtime bug. Run `onnxpack check` on it, or try another onnxruntime version.</source>
        <translation>モデルが不正な形か、ONNX Runtime の不具合を引き起こしている可能性があります。モデルを確認するか、別の onnxruntime のリリースを試してください。</translation>
    </message>
    <message>
        <source>Pass {flags} to use these sizes directly (or the model&apos;s real sizes).</source>
        <translation>［バンドル］タブの「シンボリック次元」で、これらの大きさ（またはモデルの実際の大きさ）を指定してください。</translation>
    </message>
    <message>
        <source>The bundle was altered, or made with smoke inputs larger than verify repeats (1 GiB): get it again from its publisher, or rebuild it with smaller {opt:dim} values.</source>
        <translation>バンドルが改変されたか、verify が再実行する上限（1 GiB）より大きなスモーク入力で作られています。発行元から入手し直すか、より小さな {opt:dim} の値で作り直してください。</translation>
    </message>
    <message>
        <source>Check the ONNX Runtime installation; the model or recipe may need another runtime.</source>
        <translation>ONNX Runtime のインストールを確認してください。このモデルやレシピには別のランタイムが必要かもしれません。</translation>
    </message>
    <message>
        <source>Override it with {opt:input} {subject}=FILE.npy.</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Feed it with {opt:input} {subject}=FILE.npy to test that path.</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Give smaller sizes, e.g. {opt:dim} {dim}=1 (or real data with {opt:input} NAME=FILE.npy).</source>
        <translation>より小さいサイズを指定してください。例: {opt:dim} {dim}=1 (または {opt:input} NAME=FILE.npy で実データを指定)。</translation>
    </message>
    <message>
        <source>The model fixes these sizes: it cannot be smoke-run here; bundle it with {opt:no_smoke}, or run it on a machine with more memory.</source>
        <translation>モデルがこれらのサイズを固定しているため、ここではスモーク実行できません。{opt:no_smoke} でバンドルするか、メモリの多いマシンで実行してください。</translation>
    </message>
    <message>
        <source>Only tensor inputs of numeric, bool and string types, of at most 64 dimensions, can be generated or loaded.</source>
        <translation>生成や読み込みができるのは、数値・bool・文字列型のテンソル入力だけです。</translation>
    </message>
    <message>
        <source>Use smaller {opt:dim} values or run on a machine with more memory.</source>
        <translation>{opt:dim} の値を小さくするか、メモリーの多いマシンで実行してください。</translation>
    </message>
    <message>
        <source>Re-run with the recorded ONNX Runtime version for an exact comparison.</source>
        <translation>正確に比べるには、記録された ONNX Runtime のバージョンで再実行してください。</translation>
    </message>
    <message>
        <source>The model is non-deterministic (random ops?); equality checks against it are not meaningful.</source>
        <translation>モデルが非決定的です（乱数の演算子？）。このモデルとの一致の確認には意味がありません。</translation>
    </message>
    <message>
        <source>Check the model with real inputs ({opt:input} NAME=FILE); generated random inputs can also overflow.</source>
        <translation>バンドル タブの「入力データ」に実際の入力データ (.npy) を指定してください。生成値はモデルが想定する範囲外かもしれません。</translation>
    </message>
    <message>
        <source>Rebuild the bundle without {opt:no_smoke} to record one.</source>
        <translation>スモーク実行をオンにしてバンドルを作り直すと、記録が残ります。</translation>
    </message>
    <message>
        <source>If an app reads it with onnxruntime-node, re-export the model with tensor outputs (scikit-learn classifiers: skl2onnx&apos;s option zipmap=False).</source>
        <translation>アプリが onnxruntime-node でこの出力を読む場合は、テンソルを出力するモデルとして再エクスポートしてください（scikit-learn の分類器なら skl2onnx のオプション zipmap=False）。</translation>
    </message>
    <message>
        <source>Or supply real data with {opt:input} NAME=FILE.npy (.npz, .pb).</source>
        <translation>実データを {opt:input} NAME=FILE.npy (.npz, .pb) で指定してください。</translation>
    </message>
    <message>
        <source>Give real sizes, e.g. {opt:dim} {dim_arg}; or supply real data with {opt:input} NAME=FILE.npy (.npz, .pb).</source>
        <translation>実際の大きさを指定するか (例: {opt:dim} {dim_arg})、実データを {opt:input} NAME=FILE.npy (.npz, .pb) で指定してください。</translation>
    </message>
    <message>
        <source>Give real sizes, e.g. {opt:dim} {dim_arg}; or supply real data with {opt:input} NAME=FILE.npy (.npz, .pb); or drop {opt:no_search} to let onnxpack try common sizes.</source>
        <translation>実際の大きさを指定するか (例: {opt:dim} {dim_arg})、実データを {opt:input} NAME=FILE.npy (.npz, .pb) で指定してください。または {opt:no_search} を外すと onnxpack がよく使われる大きさを試します。</translation>
    </message>
    <message>
        <source>Give real values for scalar inputs, e.g. {opt:input} {scalar}={example}; or supply real data with {opt:input} NAME=FILE.npy (.npz, .pb).</source>
        <translation>スカラー入力に実際の値を指定するか (例: {opt:input} {scalar}={example})、実データを {opt:input} NAME=FILE.npy (.npz, .pb) で指定してください。</translation>
    </message>
    <message>
        <source>Give real sizes, e.g. {opt:dim} {dim_arg}; give real values for scalar inputs, e.g. {opt:input} {scalar}={example}; or supply real data with {opt:input} NAME=FILE.npy (.npz, .pb).</source>
        <translation>実際の大きさ (例: {opt:dim} {dim_arg}) とスカラー入力の実際の値 (例: {opt:input} {scalar}={example}) を指定するか、実データを {opt:input} NAME=FILE.npy (.npz, .pb) で指定してください。</translation>
    </message>
    <message>
        <source>Give real sizes, e.g. {opt:dim} {dim_arg}; give real values for scalar inputs, e.g. {opt:input} {scalar}={example}; or supply real data with {opt:input} NAME=FILE.npy (.npz, .pb); or drop {opt:no_search} to let onnxpack try common sizes.</source>
        <translation>実際の大きさ (例: {opt:dim} {dim_arg}) とスカラー入力の実際の値 (例: {opt:input} {scalar}={example}) を指定するか、実データを {opt:input} NAME=FILE.npy (.npz, .pb) で指定してください。または {opt:no_search} を外すと onnxpack がよく使われる大きさを試します。</translation>
    </message>
    <message>
        <source>{capitalized} was generated as {distribution}; if it holds indices, give their valid range, e.g. {opt:range} {name}=0:N where N is the size of what they index; or supply real data with {opt:input} NAME=FILE.npy (.npz, .pb).</source>
        <translation>{name} は {distribution} として生成されました。インデックスを表す入力なら、有効な範囲を指定してください (例: {opt:range} {name}=0:N。N は参照先の大きさ)。または実データを {opt:input} NAME=FILE.npy (.npz, .pb) で指定してください。</translation>
    </message>
    <message>
        <source>Fix the problems above first.</source>
        <translation>先に上の問題を解決してください。</translation>
    </message>
    <message>
        <source>Raise the limit with {opt:timeout} SECONDS (loading a large model can take minutes), or use smaller sizes with {opt:dim} NAME=VALUE.</source>
        <translation>{opt:timeout} SECONDS で上限を引き上げるか (大きなモデルの読み込みには数分かかることがあります)、{opt:dim} NAME=VALUE でより小さいサイズを指定してください。</translation>
    </message>
    <message>
        <source>Large tensors inside subgraphs or Constant nodes cannot be smoke-run in memory; move them to main-graph initializers.</source>
        <translation>サブグラフや Constant ノードの中の大きなテンソルを、メイングラフの初期化子に移してください。</translation>
    </message>
    <message>
        <source>Wait until whatever writes the model has finished (an export or a copy still running?), then run again.</source>
        <translation>モデルに書き込んでいる処理（エクスポートやコピーの途中？）が終わるのを待ってから、もう一度試してください。</translation>
    </message>
    <message>
        <source>Give {opt:target_ort} X.Y yourself, or point {opt:target_app} at the file that pins ONNX Runtime (ort/ort-sys, Microsoft.ML.OnnxRuntime, onnxruntime-node/-web, onnxruntime).</source>
        <translation>目標の ONNX Runtime を自分で選ぶか、ONNX Runtime のバージョンを固定しているファイルを指定してください。</translation>
    </message>
    <message>
        <source>Give {opt:target_ort} X.Y yourself (the ORT release the crate downloads: its ort-sys build script names it), or update onnxpack.</source>
        <translation>目標の ONNX Runtime を自分で選ぶか、onnxpack を更新してください。</translation>
    </message>
    <message>
        <source>Give the app&apos;s Cargo.lock, .csproj, package-lock.json, requirements.txt, pyproject.toml or uv.lock, or its folder.</source>
        <translation>アプリの Cargo.lock、.csproj、packages.lock.json、package-lock.json、requirements.txt、pyproject.toml、uv.lock のいずれかを指定してください。</translation>
    </message>
    <message>
        <source>Give the app&apos;s Cargo.lock, .csproj, packages.lock.json, package-lock.json, requirements*.txt, pyproject.toml or uv.lock.</source>
        <translation>アプリの Cargo.lock、.csproj、packages.lock.json、package-lock.json、requirements*.txt、pyproject.toml、uv.lock のいずれかを指定してください。</translation>
    </message>
    <message>
        <source>Check the file.</source>
        <translation>ファイルを確認してください。</translation>
    </message>
    <message>
        <source>Give the app&apos;s lock file or manifest itself (a regular file of at most {limit}), or its folder.</source>
        <translation>アプリのロック ファイルかマニフェストそのもの（{limit} 以下の通常のファイル）か、そのフォルダーを指定してください。</translation>
    </message>
    <message>
        <source>Give the file as its package manager wrote it (regenerate it if it was edited), or give {opt:target_ort} X.Y yourself.</source>
        <translation>パッケージ マネージャーが書いたままのファイルを指定する（編集した場合は作り直してください）か、目標の ONNX Runtime を自分で選んでください。</translation>
    </message>
    <message>
        <source>Correct the version in the file, or give {opt:target_ort} X.Y yourself.</source>
        <translation>ファイルのバージョンを直すか、目標の ONNX Runtime を自分で選んでください。</translation>
    </message>
    <message>
        <source>Give {opt:target_app} {lock}, or the app&apos;s folder.</source>
        <translation>アプリのファイルとして {lock} か、アプリのフォルダーを指定してください。</translation>
    </message>
    <message>
        <source>Build the app once (or run `cargo generate-lockfile`) and give its Cargo.lock.</source>
        <translation>アプリを一度ビルドして（または `cargo generate-lockfile` を実行して）、その Cargo.lock を指定してください。</translation>
    </message>
    <message>
        <source>Export the model to ONNX first: in PyTorch, build the model (load_state_dict if the file holds only weights), then torch.onnx.export(model, example_inputs, &quot;model.onnx&quot;), and give the .onnx.</source>
        <translation>まずモデルを ONNX に書き出してください。PyTorch でモデルを組み立て（ファイルが重みだけなら load_state_dict で読み込み）、torch.onnx.export(model, example_inputs, &quot;model.onnx&quot;) で書き出した .onnx を指定してください。</translation>
    </message>
    <message>
        <source>A bundle is built from an ONNX model: export the checkpoint with torch.onnx.export, then run `onnxpack bundle` on the .onnx.</source>
        <translation>バンドルは ONNX モデルから作ります。チェックポイントを torch.onnx.export で書き出し、その .onnx をバンドルしてください。</translation>
    </message>
    <message>
        <source>Give a number for {name} (e.g. {opt:input} {name}={example}) or a .npy/.npz/.pb file.</source>
        <translation>{name} には数値（例: {opt:input} {name}={example}）か .npy/.npz/.pb ファイルを指定してください。</translation>
    </message>
    <message>
        <source>Give true, false, 1 or 0 for {name} (e.g. {opt:input} {name}={example}) or a .npy/.npz/.pb file.</source>
        <translation>{name} には true、false、1、0 のいずれか（例: {opt:input} {name}={example}）か .npy/.npz/.pb ファイルを指定してください。</translation>
    </message>
    <message>
        <source>Give the model file instead: {referrer}; its data file is found beside it.</source>
        <translation>代わりにモデルファイル {referrer} を指定してください。データファイルはその隣から見つかります。</translation>
    </message>
    <message>
        <source>Give the model file instead: {referrer} (or another of them); its data file is found beside it.</source>
        <translation>代わりにモデルファイル {referrer}（またはそれらの別のもの）を指定してください。データファイルはその隣から見つかります。</translation>
    </message>
    <message>
        <source>Load the model by its path, with its data files beside it.</source>
        <translation>データファイルを横に置いたまま、モデルをパスから読み込んでください。</translation>
    </message>
    <message>
        <source>Check that the model and its data files are extracted together, at their paths.</source>
        <translation>モデルとデータファイルが、それぞれのパスに一緒に展開されているか確認してください。</translation>
    </message>
    <message>
        <source>Load the model by its absolute path.</source>
        <translation>モデルを絶対パスで読み込んでください。</translation>
    </message>
    <message>
        <source>Load the model by its path.</source>
        <translation>モデルをパスから読み込んでください。</translation>
    </message>
    <message>
        <source>Load the model through its real path, or keep the model and its data files as real files in one folder.</source>
        <translation>モデルを実際のパスから読み込むか、モデルとデータファイルを 1 つのフォルダーに実ファイルとして置いてください。</translation>
    </message>
    <message>
        <source>Install the model under a path of ASCII characters without spaces.</source>
        <translation>モデルは ASCII 文字だけで空白のないパスに置いてください。</translation>
    </message>
    <message>
        <source>Load the model by its path; report the difference to ONNX Runtime with the bundle.</source>
        <translation>モデルをパスから読み込んでください。この違いはバンドルを添えて ONNX Runtime に報告してください。</translation>
    </message>
    <message>
        <source>Load the model by its path; or, from bytes, set the session option session.model_external_initializers_file_folder_path to the model&apos;s folder (ONNX Runtime 1.21 and newer).</source>
        <translation>モデルをパスから読み込んでください。バイト列から読み込む場合は、セッションオプション session.model_external_initializers_file_folder_path にモデルのフォルダーを指定してください (ONNX Runtime 1.21 以降)。</translation>
    </message>
    <message>
        <source>onnxpack tried {kinds} kinds of generated inputs ({profiles}); each gave NaN/Inf. Check the model with real inputs ({opt:input} NAME=FILE); generated random inputs can also overflow.</source>
        <translation>onnxpack は {kinds} 種類の生成入力を試しました ({profiles})。どれも NaN/Inf になりました。実データ ({opt:input} NAME=FILE) でモデルを確認してください。ランダムに生成した入力ではオーバーフローすることもあります。</translation>
    </message>
    <message>
        <source>onnxpack tried {kinds} kinds of generated inputs ({profiles}); {failed} of them failed to run ({failed_profile}: {error}), the others gave NaN/Inf. Check the model with real inputs ({opt:input} NAME=FILE); generated random inputs can also overflow.</source>
        <translation>onnxpack は {kinds} 種類の生成入力を試しました ({profiles})。そのうち {failed} 種類は実行に失敗し ({failed_profile}: {error})、残りは NaN/Inf になりました。実データ ({opt:input} NAME=FILE) でモデルを確認してください。ランダムに生成した入力ではオーバーフローすることもあります。</translation>
    </message>
    <message>
        <source>Keep the external-data layout for this model.</source>
        <translation>このモデルは外部データの形式のままにしてください。</translation>
    </message>
    <message>
        <source>Run `{prog} --help` for usage.</source>
        <translation>使い方は `{prog} --help` で確認してください。</translation>
    </message>
    <message>
        <source>Prove the .onnx model it was converted from.</source>
        <translation>変換元の .onnx モデルを検証してください。</translation>
    </message>
    <message>
        <source>Give one of them.</source>
        <translation>どちらか一方を指定してください。</translation>
    </message>
    <message>
        <source>Use one of: {layouts}.</source>
        <translation>次のいずれかを使ってください: {layouts}</translation>
    </message>
    <message>
        <source>Use e.g. {opt:align} 65536 (the default; Windows and POSIX can map such offsets) or 4096.</source>
        <translation>例えば {opt:align} 65536 (既定値。Windows と POSIX がこのオフセットでマップできます) か 4096 を使ってください。</translation>
    </message>
    <message>
        <source>Use auto, single, external or keep.</source>
        <translation>auto、single、external、keep のいずれかを使ってください。</translation>
    </message>
    <message>
        <source>Say which ONNX Runtime must load the model.</source>
        <translation>モデルを読み込む ONNX Runtime を指定してください。</translation>
    </message>
    <message>
        <source>Add {opt:sign_key} KEY.pem (the key the certificate was issued for).</source>
        <translation>{opt:sign_key} KEY.pem (証明書の発行対象の鍵) を追加してください。</translation>
    </message>
    <message>
        <source>Add {opt:sign_certificate} CERT.pem, or drop {opt:sign_chain}.</source>
        <translation>{opt:sign_certificate} CERT.pem を追加するか、{opt:sign_chain} を外してください。</translation>
    </message>
    <message>
        <source>Set it, or drop {opt:sigstore_identity_token_env} to log in.</source>
        <translation>その環境変数を設定するか、{opt:sigstore_identity_token_env} を外してログインしてください。</translation>
    </message>
    <message>
        <source>Example: {flag} {example}</source>
        <translation>例: {flag} {example}</translation>
    </message>
    <message>
        <source>Example: {opt:dim} sequence=512</source>
        <translation>例: {opt:dim} sequence=512</translation>
    </message>
    <message>
        <source>Example: {opt:range} x=0:1</source>
        <translation>例: {opt:range} x=0:1</translation>
    </message>
    <message>
        <source>Example: {opt:input} sr=16000</source>
        <translation>例: {opt:input} sr=16000</translation>
    </message>
    <message>
        <source>Remove the &apos;:member&apos; part.</source>
        <translation>&apos;:member&apos; の部分を取り除いてください。</translation>
    </message>
    <message>
        <source>Give a range within ±{top}, e.g. {opt:range} {name}=-1:1.</source>
        <translation>±{top} 以内の範囲を指定してください。例: {opt:range} {name}=-1:1</translation>
    </message>
    <message>
        <source>Widen it, e.g. {opt:range} {name}={low}:{high} for the single value {low}.</source>
        <translation>範囲を広げてください。例えば値 {low} だけなら {opt:range} {name}={low}:{high}</translation>
    </message>
    <message>
        <source>Example: {opt:runs} 5</source>
        <translation>例: {opt:runs} 5</translation>
    </message>
    <message>
        <source>Leave it unset to run both alike.</source>
        <translation>両方を同じ回数実行するには指定しないでください。</translation>
    </message>
    <message>
        <source>Example: {opt:seed} 0</source>
        <translation>例: {opt:seed} 0</translation>
    </message>
    <message>
        <source>Example: {opt:timeout} 600</source>
        <translation>例: {opt:timeout} 600</translation>
    </message>
    <message>
        <source>Example: {opt:atol} 1e-5</source>
        <translation>例: {opt:atol} 1e-5</translation>
    </message>
    <message>
        <source>Example: {opt:rtol} 1e-5</source>
        <translation>例: {opt:rtol} 1e-5</translation>
    </message>
    <message>
        <source>Use 1.</source>
        <translation>1 を使ってください。</translation>
    </message>
    <message>
        <source>Use Fixed (CPU) or Runtime (NNAPI/CoreML).</source>
        <translation>Fixed (CPU) または Runtime (NNAPI/CoreML) を使ってください。</translation>
    </message>
    <message>
        <source>Use amd64 or arm.</source>
        <translation>amd64 または arm を使ってください。</translation>
    </message>
    <message>
        <source>Give releases like 1.16.3,1.20.1, a MAJOR.MINOR (its newest patch) or auto.</source>
        <translation>1.16.3,1.20.1 のようなリリース、MAJOR.MINOR (その最新パッチ)、または auto を指定してください。</translation>
    </message>
    <message>
        <source>Give releases like 1.16.3,1.20.1.</source>
        <translation>1.16.3,1.20.1 のようにリリースを指定してください。</translation>
    </message>
    <message>
        <source>Extract it first.</source>
        <translation>先に展開してください。</translation>
    </message>
    <message>
        <source>Compare the original with a different file (e.g. the merged copy).</source>
        <translation>元のモデルは別のファイル (例えば統合したコピー) と比較してください。</translation>
    </message>
    <message>
        <source>Use {suggested} ({why}), or pass {opt:allow_version_not_greater} to release it anyway.</source>
        <translation>{suggested}（{why}）を使うか、{opt:allow_version_not_greater} でそのままリリースしてください。</translation>
    </message>
    <message>
        <source>The suggested version is {suggested}.</source>
        <translation>推奨するバージョンは {suggested} です。</translation>
    </message>
    <message>
        <source>Use the suggested version, or {opt:allow_version_not_greater}.</source>
        <translation>提案されたバージョンを使うか、{opt:allow_version_not_greater}。</translation>
    </message>
    <message>
        <source>{changes}</source>
        <translation>{changes}</translation>
    </message>
    <message>
        <source>Re-export the model with a released exporter and opset. If a newer ONNX has been released since, update onnxpack.</source>
        <translation>リリース済みのエクスポーターとオペセットでモデルをエクスポートし直してください。その後に新しい ONNX がリリースされていれば、onnxpack を更新してください。</translation>
    </message>
    <message>
        <source>Do not use this archive: it was damaged or crafted. Get the bundle again from its publisher.</source>
        <translation>このアーカイブは使わないでください。壊れているか、細工されています。配布元からバンドルを取得し直してください。</translation>
    </message>
</context>
<context>
    <name>LoadsBox</name>
    <message>
        <source>Way to load</source>
        <translation>読み込み方</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Ways to load it</source>
        <translation>読み込み方の確認</translation>
    </message>
    <message>
        <source>by its path</source>
        <translation>パスで</translation>
    </message>
    <message>
        <source>from another working directory</source>
        <translation>別の作業フォルダから</translation>
    </message>
    <message>
        <source>from bytes</source>
        <translation>バイト列から</translation>
    </message>
    <message>
        <source>from bytes with its folder set</source>
        <translation>バイト列から（フォルダを指定）</translation>
    </message>
    <message>
        <source>through a symbolic link</source>
        <translation>シンボリックリンク経由で</translation>
    </message>
    <message>
        <source>from a Japanese folder name with a space</source>
        <translation>日本語と空白を含むフォルダ名から</translation>
    </message>
    <message>
        <source>InferenceSession with the model file&apos;s absolute path</source>
        <translation>モデルファイルの絶対パスを渡した InferenceSession</translation>
    </message>
    <message>
        <source>A relative path to the model, the app running in another folder</source>
        <translation>アプリが別のフォルダで動き、モデルを相対パスで指定</translation>
    </message>
    <message>
        <source>The model file&apos;s bytes read by the app: ort&apos;s commit_from_memory, CreateSessionFromArray, a JavaScript buffer, C#&apos;s byte[]</source>
        <translation>アプリが読み込んだモデルファイルのバイト列：ort の commit_from_memory、CreateSessionFromArray、JavaScript のバッファー、C# の byte[]</translation>
    </message>
    <message>
        <source>The model&apos;s bytes, with the session option session.model_external_initializers_file_folder_path naming its folder</source>
        <translation>モデルのバイト列と、そのフォルダを指定するセッションオプション session.model_external_initializers_file_folder_path</translation>
    </message>
    <message>
        <source>A symbolic link to the model in another folder, as a Hugging Face cache links its files</source>
        <translation>別のフォルダにあるモデルへのシンボリックリンク（Hugging Face のキャッシュと同じ形）</translation>
    </message>
    <message>
        <source>A copy in a folder named “モデル フォルダ” (Japanese characters and a space)</source>
        <translation>「モデル フォルダ」（日本語と空白を含む名前）のフォルダに置いたコピー</translation>
    </message>
    <message>
        <source>passed: the same outputs, bit for bit</source>
        <translation>成功：出力はビット単位で同一</translation>
    </message>
    <message>
        <source>How to fix: %1</source>
        <translation>対処法：%1</translation>
    </message>
    <message>
        <source>refused, as expected: its weights are in a data file, which ONNX Runtime then looks for in the working directory.</source>
        <translation>想定どおり読み込めません：重みがデータファイルにあり、ONNX Runtime はそれを作業フォルダで探すためです。</translation>
    </message>
    <message>
        <source>FAILED: the outputs differ from the reference run&apos;s.</source>
        <translation>失敗：出力が基準の実行と異なります。</translation>
    </message>
    <message>
        <source>FAILED: %1</source>
        <translation>失敗：%1</translation>
    </message>
    <message>
        <source>Ways to load each model</source>
        <translation>各モデルの読み込み方の確認</translation>
    </message>
    <message numerus="yes">
        <source>Loaded the ways apps load a model, in the smoke run (onnxruntime %1): %n way(s) passed, each giving the reference outputs bit for bit.</source>
        <translation>
            <numerusform>スモーク実行で、アプリがモデルを読み込む方法を試しました（onnxruntime %1）：%n 通りが成功し、いずれも基準の出力とビット単位で一致しました。</numerusform>
        </translation>
    </message>
    <message>
        <source>A refusal marked as expected is how ONNX Runtime works, not a fault of the bundle: load that model another way.</source>
        <translation>「想定どおり」の失敗は ONNX Runtime の仕様で、バンドルの不具合ではありません。そのモデルは別の方法で読み込んでください。</translation>
    </message>
    <message numerus="yes">
        <source>%n way(s) FAILED: an app loading the model that way fails too; see how to fix each.</source>
        <translation>
            <numerusform>%n 通りが失敗しました：その方法で読み込むアプリも失敗します。それぞれの対処法を確認してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Recorded when the bundle was made.</source>
        <translation>バンドル作成時の記録です。</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未計測</translation>
    </message>
    <message>
        <source>%1 s and %2 MiB</source>
        <translation>%1 秒・%2 MiB</translation>
    </message>
    <message>
        <source>Loading %1 by its path costs the end user %2 (the memory a load adds to its process), as it did as it came: the shipped file is the original, byte for byte.</source>
        <translation>%1 をパスで読み込むと、利用者には %2 かかります（メモリーは読み込みがプロセスに加える量）。配布するファイルは元のファイルとバイト単位で同一なので、元の形式と同じです。</translation>
    </message>
    <message>
        <source>Loading %1 by its path costs the end user %2 as shipped, %3 as it came (the memory a load adds to its process).</source>
        <translation>%1 をパスで読み込むと、利用者には配布した形式で %2、元の形式で %3 かかります（メモリーは読み込みがプロセスに加える量）。</translation>
    </message>
    <message>
        <source>The shipped layout takes %1x the time and %2x the memory.</source>
        <translation>配布した形式は %1 倍の時間と %2 倍のメモリーを要します。</translation>
    </message>
    <message>
        <source>The shipped layout loads as the source does (the difference is within the measurement&apos;s noise).</source>
        <translation>配布した形式の読み込みは元の形式と変わりません (差は計測の誤差の範囲内です)。</translation>
    </message>
</context>
<context>
    <name>LogPane</name>
    <message>
        <source>Lo&amp;g:</source>
        <translation>ログ(&amp;G):</translation>
    </message>
    <message>
        <source>Cop&amp;y log</source>
        <translation>ログをコピー(&amp;Y)</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>クリア</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>ログ</translation>
    </message>
    <message>
        <source>Only the selected &amp;row</source>
        <translation>選択した行のみ(&amp;R)</translation>
    </message>
    <message>
        <source>Show the log lines of the row selected in the queue alone</source>
        <translation>キューで選択した行のログだけを表示します</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>onnxpack — ONNX release bundler</source>
        <translation>onnxpack — ONNX リリース バンドラー</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Open models or bundles…</source>
        <translation>モデルまたはバンドルを開く…(&amp;O)</translation>
    </message>
    <message>
        <source>Open the &amp;sample model</source>
        <translation>サンプル モデルを開く(&amp;S)</translation>
    </message>
    <message>
        <source>Locate &amp;data file…</source>
        <translation>データファイルの場所を指定(&amp;D)…</translation>
    </message>
    <message>
        <source>Choose the external data file of the selected model when it is not beside the model</source>
        <translation>選択したモデルの外部データファイルがモデルの隣にない場合に、その場所を選びます</translation>
    </message>
    <message>
        <source>&amp;Bundle selected model</source>
        <translation>選択したモデルをバンドル(&amp;B)</translation>
    </message>
    <message>
        <source>Bundle &amp;all ready models</source>
        <translation>準備済みのモデルをすべてバンドル(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Cancel running bundle</source>
        <translation>実行中のバンドルを中止(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Verify bundle with a smoke run</source>
        <translation>スモーク実行付きでバンドルを検証(&amp;V)</translation>
    </message>
    <message>
        <source>Open o&amp;utput folder</source>
        <translation>出力フォルダーを開く(&amp;U)</translation>
    </message>
    <message>
        <source>Copy CLI co&amp;mmand</source>
        <translation>CLI コマンドをコピー(&amp;M)</translation>
    </message>
    <message>
        <source>Copy &amp;log</source>
        <translation>ログをコピー(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Remove selected row</source>
        <translation>選択した行を削除(&amp;R)</translation>
    </message>
    <message>
        <source>Clear finis&amp;hed rows</source>
        <translation>完了した行を消去(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>モデル(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Bundle</source>
        <translation>バンドル(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Progress</source>
        <translation>進行状況(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Result</source>
        <translation>結果(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Queue</source>
        <translation>キュー(&amp;Q)</translation>
    </message>
    <message>
        <source>Open &amp;crash-log folder</source>
        <translation>クラッシュ ログのフォルダーを開く(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;About onnxpack</source>
        <translation>onnxpack について(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Qt について(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;System default</source>
        <translation>システムの既定(&amp;S)</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Bundle</source>
        <translation>バンドル</translation>
    </message>
    <message>
        <source>Progress and log</source>
        <translation>進行状況とログ</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Work area</source>
        <translation>作業領域</translation>
    </message>
    <message>
        <source>Drop models, model folders or bundles to open them</source>
        <translation>モデル、モデルのフォルダー、バンドルをドロップして開きます</translation>
    </message>
    <message>
        <source>Open models or bundles</source>
        <translation>モデルまたはバンドルを開く</translation>
    </message>
    <message>
        <source>Models and bundles (*.onnx *.ort *.zip);;All files (*)</source>
        <translation>モデルとバンドル (*.onnx *.ort *.zip);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation>モデル フォルダーを開く</translation>
    </message>
    <message>
        <source>Inspecting %1</source>
        <translation>%1 を検査しています</translation>
    </message>
    <message>
        <source>Verifying %1</source>
        <translation>%1 を検証しています</translation>
    </message>
    <message>
        <source>Verifying %1 with a smoke run</source>
        <translation>%1 をスモーク実行付きで検証中</translation>
    </message>
    <message>
        <source>Locate the data file of %1</source>
        <translation>%1 のデータファイルの場所を指定</translation>
    </message>
    <message>
        <source>External data (*.data *.bin *.weights);;All files (*)</source>
        <translation>外部データ (*.data *.bin *.weights);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Looking for the data files of %1 in %2</source>
        <translation>%1 のデータファイルを %2 で探します</translation>
    </message>
    <message>
        <source>Checking %1 again for ONNX Runtime %2</source>
        <translation>ONNX Runtime %2 向けに %1 をもう一度確認します</translation>
    </message>
    <message>
        <source>any</source>
        <translation>指定なし</translation>
    </message>
    <message>
        <source>(%1 of %2)</source>
        <translation>(%2 件中 %1 件目)</translation>
    </message>
    <message>
        <source>Bundling %1 as %2 %3</source>
        <translation>%1 を %2 %3 としてバンドルしています</translation>
    </message>
    <message numerus="yes">
        <source>Inspected %1: %n finding(s).</source>
        <translation>
            <numerusform>%1 を検査しました: 検出事項 %n 件。</numerusform>
        </translation>
    </message>
    <message>
        <source>Verified %1: every file matches.</source>
        <translation>%1 を検証しました: すべてのファイルが一致しています。</translation>
    </message>
    <message>
        <source>Verification of %1 FAILED.</source>
        <translation>%1 の検証に失敗しました。</translation>
    </message>
    <message>
        <source>Bundle written: %1</source>
        <translation>バンドルを書き出しました: %1</translation>
    </message>
    <message>
        <source>The latest bundle of this row failed: %1</source>
        <translation>この行の最新のバンドルは失敗しました: %1</translation>
    </message>
    <message>
        <source>The bundle made before it is still there: %1</source>
        <translation>前回作成したバンドルはそのまま残っています: %1</translation>
    </message>
    <message>
        <source>&amp;Bundle selected release</source>
        <translation>選択したリリースをバンドル(&amp;B)</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) · %1 running · %2 queued · %3 bundled</source>
        <translation>
            <numerusform>%n 件 · 実行中 %1 · 待機中 %2 · バンドル済み %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot compare with the previous bundle: %1</source>
        <translation>前回のバンドルと比較できません: %1</translation>
    </message>
    <message>
        <source>Cannot read the previous bundle</source>
        <translation>前回のバンドルを読み込めません</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>エラー: %1</translation>
    </message>
    <message>
        <source>How to fix: %1</source>
        <translation>対処法: %1</translation>
    </message>
    <message>
        <source>%1 keeps its earlier bundle: %2</source>
        <translation>%1 は以前のバンドルをそのまま残します: %2</translation>
    </message>
    <message>
        <source>Cannot read this model</source>
        <translation>このモデルを読み込めません</translation>
    </message>
    <message>
        <source>Open model or release &amp;folder…</source>
        <translation>モデルまたはリリースのフォルダーを開く(&amp;F)…</translation>
    </message>
    <message>
        <source>Bundle each model of the release on i&amp;ts own</source>
        <translation>リリースの各モデルを個別にバンドル(&amp;T)</translation>
    </message>
    <message>
        <source>Replace the selected release row by one row per model: each model is then bundled into a ZIP of its own, without the release&apos;s other files</source>
        <translation>選択したリリースの行を、モデルごとの行に置き換えます。各モデルはリリースのほかのファイルなしで、それぞれ別の ZIP にバンドルされます</translation>
    </message>
    <message>
        <source>Reading the release folder %1</source>
        <translation>リリースのフォルダー %1 を読み込んでいます</translation>
    </message>
    <message>
        <source>Read the release %1: %2.</source>
        <translation>リリース %1 を読み込みました: %2。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n finding(s).</source>
        <translation>
            <numerusform>%1: 検出事項 %n 件。</numerusform>
        </translation>
    </message>
    <message>
        <source>Left out: %1</source>
        <translation>除外: %1</translation>
    </message>
    <message>
        <source>%1 comes from the release %2; it is bundled on its own.</source>
        <translation>%1 はリリース %2 のモデルです。個別にバンドルされます。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n model(s), each queued on its own.</source>
        <translation>
            <numerusform>%1: モデル %n 個を、それぞれ個別にキューに追加しました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n model(s), each on its own row.</source>
        <translation>
            <numerusform>%1: モデル %n 個を、それぞれ別の行にしました。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read this release folder</source>
        <translation>このリリースのフォルダーを読み込めません</translation>
    </message>
    <message>
        <source>Cannot verify this bundle</source>
        <translation>このバンドルを検証できません</translation>
    </message>
    <message>
        <source>Bundling failed</source>
        <translation>バンドルに失敗しました</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>Cancelled %1; nothing was written.</source>
        <translation>%1 を中止しました。何も書き出されていません。</translation>
    </message>
    <message>
        <source>%1 of %2 bundles failed:</source>
        <translation>%2 件中 %1 件のバンドルが失敗しました:</translation>
    </message>
    <message>
        <source>Select a row to see its error and how to fix it; rows that were bundled before keep their earlier bundle.</source>
        <translation>行を選ぶとエラーと対処方法が表示されます。以前にバンドルした行は以前のバンドルを残します。</translation>
    </message>
    <message>
        <source>%1: the bundle needs a name.</source>
        <translation>%1: バンドルの名前が必要です。</translation>
    </message>
    <message>
        <source>Type a name in the Bundle tab; it becomes part of the ZIP file name.</source>
        <translation>「バンドル」タブで名前を入力してください。ZIP ファイル名の一部になります。</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; cannot name a bundle.</source>
        <translation>%1: 「%2」はバンドル名に使えません。</translation>
    </message>
    <message>
        <source>Type a plain file name in the Bundle tab, such as &apos;victory&apos;; it becomes NAME.onnx and NAME-VERSION.zip.</source>
        <translation>バンドル タブで「victory」のような通常のファイル名を入力してください。NAME.onnx と NAME-VERSION.zip になります。</translation>
    </message>
    <message>
        <source>No output folder is set.</source>
        <translation>出力フォルダーが設定されていません。</translation>
    </message>
    <message>
        <source>Choose the folder the bundle is written to in the Bundle tab.</source>
        <translation>「バンドル」タブで、バンドルの書き出し先フォルダーを選んでください。</translation>
    </message>
    <message>
        <source>Cannot start bundling</source>
        <translation>バンドルを開始できません</translation>
    </message>
    <message>
        <source>Bundle all</source>
        <translation>すべてバンドル</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) were bundled already: %1</source>
        <translation>
            <numerusform>%n 行はすでにバンドル済みです: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Skip them and bundle the other %n model(s)?</source>
        <translation>
            <numerusform>それらを飛ばして、残りの %n 個のモデルをバンドルしますか?</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Skip bundled rows</source>
        <translation>バンドル済みの行を飛ばす(&amp;S)</translation>
    </message>
    <message>
        <source>Skipped %1: bundled already as %2</source>
        <translation>%1 を飛ばしました: %2 としてバンドル済み</translation>
    </message>
    <message>
        <source>Several models would be written to the same file: %1</source>
        <translation>複数のモデルが同じファイルに書き込まれます: %1</translation>
    </message>
    <message>
        <source>Give each model its own name or version in the Bundle tab.</source>
        <translation>バンドル タブで、モデルごとに別の名前またはバージョンを指定してください。</translation>
    </message>
    <message numerus="yes">
        <source>%n bundle(s) exist already: %1</source>
        <translation>
            <numerusform>既存のバンドルが %n 件あります: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>major: breaking interface change</source>
        <translation>メジャー: 互換性のないインターフェース変更</translation>
    </message>
    <message>
        <source>minor: compatible addition</source>
        <translation>マイナー: 互換性のある追加</translation>
    </message>
    <message>
        <source>patch: weights or details only</source>
        <translation>パッチ: 重みや細部のみの変更</translation>
    </message>
    <message>
        <source>patch: nothing changed</source>
        <translation>パッチ: 変更なし</translation>
    </message>
    <message>
        <source>Previous release %1 → suggested %2 (%3)</source>
        <translation>前回のリリース %1 → 提案 %2（%3）</translation>
    </message>
    <message>
        <source>The output folder %1 does not exist yet.</source>
        <translation>出力フォルダー %1 はまだありません。</translation>
    </message>
    <message>
        <source>It is created by the first bundle.</source>
        <translation>最初のバンドル時に作成されます。</translation>
    </message>
    <message>
        <source>This row is a bundle: it is verified, not bundled. Its verification is in the Model tab.</source>
        <translation>この行はバンドルです。バンドルするのではなく検証します。検証結果はモデル タブにあります。</translation>
    </message>
    <message>
        <source>Select a model in the queue to bundle it.</source>
        <translation>バンドルするには、キューでモデルを選んでください。</translation>
    </message>
    <message>
        <source>The release folder could not be read; see the Model tab.</source>
        <translation>リリースのフォルダーを読み込めませんでした。「モデル」タブを参照してください。</translation>
    </message>
    <message numerus="yes">
        <source>Bundling is off for this release: %n error finding(s) must be fixed first.</source>
        <translation>
            <numerusform>このリリースはバンドルできません: 先にエラーの検出事項 %n 件を修正してください。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Bundling is off for this model: %n error finding(s) must be fixed first.</source>
        <translation>
            <numerusform>このモデルはバンドルできません: 先にエラーの指摘 %n 件を直してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Open output folder</source>
        <translation>出力フォルダーを開く</translation>
    </message>
    <message>
        <source>Every ready model is bundled already. To make a bundle again, %1.</source>
        <translation>準備のできたモデルはすべてバンドル済みです。もう一度作るには、%1。</translation>
    </message>
    <message>
        <source>Nothing was started. Choose a new version, another output folder, or %1.</source>
        <translation>何も開始していません。新しいバージョンか別の出力フォルダーを選ぶか、%1。</translation>
    </message>
    <message>
        <source>Copied to the clipboard: %1</source>
        <translation>クリップボードにコピーしました: %1</translation>
    </message>
    <message>
        <source>CLI command copied to the clipboard.</source>
        <translation>CLI コマンドをクリップボードにコピーしました。</translation>
    </message>
    <message>
        <source>Open log folder</source>
        <translation>ログフォルダーを開く</translation>
    </message>
    <message>
        <source>No program on this system opens folders, so %1 was not opened.</source>
        <translation>このシステムにはフォルダーを開くプログラムがないため、%1 を開けませんでした。</translation>
    </message>
    <message>
        <source>Open it in your file manager; you can copy the path from this message.</source>
        <translation>ファイルマネージャーで開いてください。パスはこのメッセージからコピーできます。</translation>
    </message>
    <message>
        <source>About onnxpack</source>
        <translation>onnxpack について</translation>
    </message>
    <message>
        <source>Turns an ONNX model into a verified, self-contained release bundle.
Qt %1, Python %2</source>
        <translation>ONNX モデルを、検証済みで単体で完結したリリース バンドルにします。
Qt %1、Python %2</translation>
    </message>
    <message>
        <source>This is a bug in onnxpack. Please report it with the log file: %1</source>
        <translation>これは onnxpack の不具合です。次のログ ファイルを添えて報告してください: %1</translation>
    </message>
    <message>
        <source>(the log could not be written)</source>
        <translation>（ログを書き込めませんでした）</translation>
    </message>
    <message>
        <source>Unexpected error: %1</source>
        <translation>予期しないエラー: %1</translation>
    </message>
    <message>
        <source>Unexpected error</source>
        <translation>予期しないエラー</translation>
    </message>
    <message>
        <source>This row is a bundle: it is verified, not bundled.</source>
        <translation>この行はバンドルです。バンドルではなく検証の対象です。</translation>
    </message>
    <message>
        <source>Busy: %1</source>
        <translation>処理中: %1</translation>
    </message>
    <message>
        <source>The model could not be read; see the Model tab.</source>
        <translation>モデルを読み込めませんでした。「モデル」タブを確認してください。</translation>
    </message>
    <message>
        <source>Stop the bundle that is running; the queued ones still run</source>
        <translation>実行中のバンドルだけを止めます（待機中のものはそのまま実行されます）</translation>
    </message>
    <message>
        <source>Cancel all bundl&amp;es</source>
        <translation>すべてのバンドルをキャンセル(&amp;E)</translation>
    </message>
    <message>
        <source>Stop the running bundle and take every queued one off the queue</source>
        <translation>実行中のバンドルを止め、待機中のものもすべてキューから外します</translation>
    </message>
    <message>
        <source>Locate the data file of %1: it references %2</source>
        <translation>%1 のデータファイルを指定（モデルが参照する名前: %2）</translation>
    </message>
    <message>
        <source>Data files of %1 (%2)</source>
        <translation>%1 のデータファイル (%2)</translation>
    </message>
    <message>
        <source>%1 references its data as %2, not %3.</source>
        <translation>%1 はデータを %3 ではなく %2 という名前で参照しています。</translation>
    </message>
    <message>
        <source>onnxpack looks for the data files by the names the model gives, in the folder of the file you choose. Rename or copy %1 to %2 in %3, then choose it again.</source>
        <translation>onnxpack は、選んだファイルのフォルダーの中で、モデルに書かれた名前のデータファイルを探します。%3 の %1 を %2 に名前変更（またはコピー）してから、もう一度選んでください。</translation>
    </message>
    <message>
        <source>Locate data file</source>
        <translation>データファイルの指定</translation>
    </message>
    <message>
        <source>Warning %1: %2</source>
        <translation>警告 %1: %2</translation>
    </message>
    <message>
        <source>%1 (rows %2)</source>
        <translation>%1（行 %2）</translation>
    </message>
    <message>
        <source>%1 would be written by:</source>
        <translation>%1 に書き込む行:</translation>
    </message>
    <message>
        <source>(name %1, version %2)</source>
        <translation>（名前 %1、バージョン %2）</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) being checked</source>
        <translation>
            <numerusform>確認中 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) with warnings</source>
        <translation>
            <numerusform>警告あり %n 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelPanel</name>
    <message>
        <source>Size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>役割</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>重大度</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>How to fix</source>
        <translation>対処法</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>テンソル</translation>
    </message>
    <message>
        <source>Offset (bytes)</source>
        <translation>オフセット (バイト)</translation>
    </message>
    <message>
        <source>Length (bytes)</source>
        <translation>長さ (バイト)</translation>
    </message>
    <message>
        <source>Aligned</source>
        <translation>アラインメント</translation>
    </message>
    <message>
        <source>Checksum</source>
        <translation>チェックサム</translation>
    </message>
    <message>
        <source>Files of the model</source>
        <translation>モデルのファイル</translation>
    </message>
    <message>
        <source>Model inputs and outputs</source>
        <translation>モデルの入力と出力</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>検出事項</translation>
    </message>
    <message>
        <source>External data</source>
        <translation>外部データ</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概要</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>インターフェース</translation>
    </message>
    <message>
        <source>Bundle &amp;each model on its own…</source>
        <translation>各モデルを個別にバンドル(&amp;E)…</translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation>検出事項 (%1)</translation>
    </message>
    <message>
        <source>External data (%1)</source>
        <translation>外部データ (%1)</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>情報</translation>
    </message>
    <message>
        <source>Verifying the bundle…</source>
        <translation>バンドルを検証中…</translation>
    </message>
    <message>
        <source>Reading and checking the model…</source>
        <translation>モデルを読み込んでチェックしています…</translation>
    </message>
    <message>
        <source>Not ready to bundle: %1, %2 — see Findings.</source>
        <translation>バンドルできません: %1、%2 —「検出事項」を参照してください。</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>エラー %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>警告 %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ready to bundle, with %n warning(s) — see Findings.</source>
        <translation>
            <numerusform>バンドルできます（警告 %n 件 —「検出事項」を参照）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s), %1 (%2 in external data)</source>
        <translation>
            <numerusform>%n 個のテンソル、%1 (外部データ %2)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n ノード</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n kind(s): %2</source>
        <translation>
            <numerusform>%1、%n 種類: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Verification failed: %n problem(s) — see Findings.</source>
        <translation>
            <numerusform>検証に失敗しました: 問題 %n 件 —「検出事項」を参照してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Ready to bundle: no problems found.</source>
        <translation>バンドルできます: 問題は見つかりませんでした。</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>リリース</translation>
    </message>
    <message>
        <source>Sho&amp;w model:</source>
        <translation>表示するモデル(&amp;W):</translation>
    </message>
    <message>
        <source>The model of the release that the Overview, Interface, Findings and External data tabs show</source>
        <translation>「概要」「インターフェイス」「検出事項」「外部データ」の各タブに表示する、リリースのモデル</translation>
    </message>
    <message>
        <source>Replace this release row by one row per model: each model is then bundled into a ZIP of its own, without the release&apos;s other files</source>
        <translation>このリリースの行を、モデルごとの行に置き換えます。各モデルはリリースのほかのファイルなしで、それぞれ別の ZIP にバンドルされます</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Assets: files the app reads beside its models</source>
        <translation>アセット: アプリがモデルと一緒に読み込むファイル</translation>
    </message>
    <message>
        <source>Left out of the release</source>
        <translation>リリースから除外されるファイル</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>パス</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>Models of the release</source>
        <translation>リリースのモデル</translation>
    </message>
    <message>
        <source>Assets of the release</source>
        <translation>リリースのアセット</translation>
    </message>
    <message>
        <source>Files left out of the release</source>
        <translation>リリースから除外されるファイル</translation>
    </message>
    <message>
        <source>Reading the folder and checking each of its models…</source>
        <translation>フォルダーを読み込み、各モデルを検査しています…</translation>
    </message>
    <message>
        <source>Showing %1 (model %2 of %3)</source>
        <translation>%1 を表示中（モデル %2/%3）</translation>
    </message>
    <message>
        <source>%1 is one release: %2, bundled into one ZIP at their paths under %3/.</source>
        <translation>%1 は 1 つのリリースです: %2。%3/ の下の同じパスのまま、1 つの ZIP にバンドルされます。</translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) have error findings: the release cannot be bundled until they are fixed.</source>
        <translation>
            <numerusform>%n 個のモデルにエラーの検出事項があります。修正するまでリリースはバンドルできません。</numerusform>
        </translation>
    </message>
    <message>
        <source>ready</source>
        <translation>準備完了</translation>
    </message>
    <message>
        <source>with its data: %1</source>
        <translation>データ: %1</translation>
    </message>
    <message>
        <source>Assets: none (the release holds only its models)</source>
        <translation>アセット: なし（リリースはモデルだけです）</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>隠しファイル</translation>
    </message>
    <message>
        <source>cache or system folder</source>
        <translation>キャッシュまたはシステムのフォルダー</translation>
    </message>
    <message>
        <source>system or editor file</source>
        <translation>システムまたはエディターのファイル</translation>
    </message>
    <message>
        <source>the output folder</source>
        <translation>出力フォルダー</translation>
    </message>
    <message>
        <source>external data no model references</source>
        <translation>どのモデルも参照しない外部データ</translation>
    </message>
    <message>
        <source>excluded by the pattern %1</source>
        <translation>パターン %1 で除外</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>場所</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>レイアウト</translation>
    </message>
    <message>
        <source>Total size on disk</source>
        <translation>ディスク上の合計サイズ</translation>
    </message>
    <message>
        <source>Size as one file</source>
        <translation>単一ファイルにした場合のサイズ</translation>
    </message>
    <message>
        <source>IR version</source>
        <translation>IR バージョン</translation>
    </message>
    <message>
        <source>Opsets</source>
        <translation>オプセット</translation>
    </message>
    <message>
        <source>Oldest ONNX Runtime</source>
        <translation>最も古い対応 ONNX Runtime</translation>
    </message>
    <message>
        <source>Producer</source>
        <translation>作成ツール</translation>
    </message>
    <message>
        <source>Model version</source>
        <translation>モデル バージョン</translation>
    </message>
    <message>
        <source>Initializers</source>
        <translation>初期化子</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>演算子</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>メタデータ</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>64 KiB</source>
        <translation>64 KiB</translation>
    </message>
    <message>
        <source>4 KiB</source>
        <translation>4 KiB</translation>
    </message>
    <message>
        <source>no</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>検証済み</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>one self-contained .onnx file</source>
        <translation>単体で完結した .onnx ファイル 1 つ</translation>
    </message>
    <message>
        <source>.onnx with external data files</source>
        <translation>.onnx と外部データ ファイル</translation>
    </message>
    <message>
        <source>ORT format (.ort)</source>
        <translation>ORT 形式（.ort）</translation>
    </message>
    <message>
        <source>none known: no ONNX Runtime release loads this IR/opset combination</source>
        <translation>該当なし: この IR とオプセットの組み合わせを読み込める ONNX Runtime のリリースはありません</translation>
    </message>
    <message>
        <source>%1 or newer</source>
        <translation>%1 以降</translation>
    </message>
    <message>
        <source>(%1 if the IR version is lowered)</source>
        <translation>（IR バージョンを下げれば %1）</translation>
    </message>
    <message>
        <source>No smoke run: the files were checked against the manifest (File → Verify bundle with a smoke run runs the model too).</source>
        <translation>スモーク実行なし: ファイルをマニフェストと照合しました (ファイル → スモーク実行付きでバンドルを検証 でモデルも実行します)。</translation>
    </message>
    <message>
        <source>Smoke run skipped: the bundle failed verification, so its model was not run.</source>
        <translation>スモーク実行は省略: バンドルが検証に失敗したため、モデルは実行されませんでした。</translation>
    </message>
    <message>
        <source>Smoke run FAILED: the recorded run could not be repeated — see Findings.</source>
        <translation>スモーク実行に失敗: 記録された実行を再現できませんでした — 検出事項を参照してください。</translation>
    </message>
    <message>
        <source>Smoke run FAILED (onnxruntime %1): the outputs do not match the recorded ones — see Findings.</source>
        <translation>スモーク実行に失敗 (onnxruntime %1): 出力が記録と一致しません — 検出事項を参照してください。</translation>
    </message>
    <message>
        <source>Smoke run passed (onnxruntime %1): every output is bit for bit the recorded one.</source>
        <translation>スモーク実行に成功 (onnxruntime %1): すべての出力が記録とビット単位で同一です。</translation>
    </message>
    <message>
        <source>Smoke run passed (onnxruntime %1, the bundle recorded %2): the outputs equal the recorded ones within the cross-version tolerance.</source>
        <translation>スモーク実行に成功 (onnxruntime %1、記録は %2): 出力はバージョン間の許容誤差内で記録と一致します。</translation>
    </message>
    <message>
        <source>Smoke run passed (onnxruntime %1): the model runs; the bundle records no outputs to compare with.</source>
        <translation>スモーク実行に成功 (onnxruntime %1): モデルは実行できます。バンドルには比較する出力の記録がありません。</translation>
    </message>
    <message>
        <source>the newest modification time of the source files</source>
        <translation>ソース ファイルの最新の更新日時</translation>
    </message>
    <message>
        <source>not run (verified without a smoke run)</source>
        <translation>未実行（スモーク実行なしで検証）</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未実行</translation>
    </message>
    <message>
        <source>smoke run passed (onnxruntime %1)</source>
        <translation>スモーク実行に成功（onnxruntime %1）</translation>
    </message>
    <message>
        <source>smoke run FAILED</source>
        <translation>スモーク実行に失敗</translation>
    </message>
    <message>
        <source>A release of %1, at their paths under %2/.</source>
        <translation>%1 のリリース（%2/ の下の同じパス）。</translation>
    </message>
    <message>
        <source>Verified: every file matches the manifest.</source>
        <translation>検証済み: すべてのファイルがマニフェストと一致しています。</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>モデル名</translation>
    </message>
    <message>
        <source>Release name</source>
        <translation>リリース名</translation>
    </message>
    <message>
        <source>Release version</source>
        <translation>リリース バージョン</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <source>Made with</source>
        <translation>作成ツール</translation>
    </message>
    <message>
        <source>Holds</source>
        <translation>内容</translation>
    </message>
    <message numerus="yes">
        <source>Bundled, with %n warning(s) — see Findings.</source>
        <translation>
            <numerusform>バンドル済み、警告 %n 件 — 「検出事項」を参照してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>ラベル</translation>
    </message>
    <message numerus="yes">
        <source>%n label(s): %1</source>
        <translation>
            <numerusform>ラベル %n 個: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>License</source>
        <translation>ライセンス</translation>
    </message>
    <message>
        <source>Homepage</source>
        <translation>ホームページ</translation>
    </message>
    <message>
        <source>Authors</source>
        <translation>作成者</translation>
    </message>
    <message>
        <source>Proven on ONNX Runtime</source>
        <translation>ONNX Runtime での実証</translation>
    </message>
    <message>
        <source>did not load it</source>
        <translation>読み込めず</translation>
    </message>
    <message>
        <source>bitwise equal</source>
        <translation>ビット単位で一致</translation>
    </message>
    <message>
        <source>equal within the tolerance</source>
        <translation>許容誤差内で一致</translation>
    </message>
    <message>
        <source>outputs differ</source>
        <translation>出力が異なる</translation>
    </message>
    <message numerus="yes">
        <source>Verified: every file matches the manifest, with %n warning(s) — see Findings.</source>
        <translation>
            <numerusform>検証済み: すべてのファイルがマニフェストと一致します。警告 %n 件 — 「検出事項」を参照してください。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>場所(&amp;L):</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>ファイルの種類(&amp;T):</translation>
    </message>
</context>
<context>
    <name>QueueTable</name>
    <message>
        <source>Item</source>
        <extracomment>state → icon kind (the text is always shown too) a row&apos;s context menu is asked for: (the row&apos;s QueueItem, where to show it on the screen)</extracomment>
        <translation>項目</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Queue of models and bundles</source>
        <translation>モデルとバンドルのキュー</translation>
    </message>
    <message>
        <source>Inspecting…</source>
        <translation>検査中…</translation>
    </message>
    <message>
        <source>Verifying…</source>
        <translation>検証中…</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>準備完了</translation>
    </message>
    <message>
        <source>Has errors</source>
        <translation>エラーあり</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>Bundling…</source>
        <translation>バンドル中…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>中止しています…</translation>
    </message>
    <message>
        <source>Bundled</source>
        <translation>バンドル済み</translation>
    </message>
    <message>
        <source>Verified</source>
        <translation>検証済み</translation>
    </message>
    <message>
        <source>Verification failed</source>
        <translation>検証失敗</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>Bundle</source>
        <translation>バンドル</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>リリース</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1（%2 内）</translation>
    </message>
    <message numerus="yes">
        <source>%1, %n warning(s)</source>
        <translation>
            <numerusform>%1、警告 %n 件</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReleaseWords</name>
    <message numerus="yes">
        <source>%n model(s)</source>
        <translation>
            <numerusform>モデル %n 個</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message numerus="yes">
        <source>%n asset(s)</source>
        <translation>
            <numerusform>アセット %n 個</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ResultPanel</name>
    <message>
        <source>Files in the bundle</source>
        <translation>バンドル内のファイル</translation>
    </message>
    <message>
        <source>Smoke-run outputs</source>
        <translation>スモーク実行の出力</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Models of the release</source>
        <translation>リリースのモデル</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Proof and smoke run</source>
        <translation>証明とスモーク実行</translation>
    </message>
    <message>
        <source>Assets of the release</source>
        <translation>リリースのアセット</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>役割</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>SHA-256</source>
        <translation>SHA-256</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Finite</source>
        <translation>有限値</translation>
    </message>
    <message>
        <source>Proven on ONNX Runtime releases</source>
        <translation>ONNX Runtime リリースでの検証</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>リリース</translation>
    </message>
    <message>
        <source>Loaded</source>
        <translation>読み込み</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation>wheel</translation>
    </message>
    <message>
        <source>&amp;Open output folder</source>
        <translation>出力フォルダーを開く(&amp;O)</translation>
    </message>
    <message>
        <source>Copy CLI co&amp;mmand</source>
        <translation>CLI コマンドをコピー(&amp;M)</translation>
    </message>
    <message>
        <source>Bundle created: %1 (%2)</source>
        <translation>バンドルを作成しました: %1（%2）</translation>
    </message>
    <message>
        <source>no smoke run, so no equality proof</source>
        <translation>スモーク実行なし（同一性の証明なし）</translation>
    </message>
    <message>
        <source>its outputs DIFFER from the original&apos;s</source>
        <translation>出力が元のモデルと異なります</translation>
    </message>
    <message>
        <source>its smoke run FAILED (onnxruntime %1)</source>
        <translation>スモーク実行に失敗（onnxruntime %1）</translation>
    </message>
    <message>
        <source>the original bit for bit</source>
        <translation>元のモデルとビット単位で同一</translation>
    </message>
    <message>
        <source>equal to the original within the tolerance</source>
        <translation>許容誤差の範囲で元のモデルと一致</translation>
    </message>
    <message numerus="yes">
        <source>%1; its smoke run gave %n warning(s) (onnxruntime %2): see below</source>
        <translation>
            <numerusform>%1。スモーク実行で警告 %n 件（onnxruntime %2）: 下を参照</numerusform>
        </translation>
    </message>
    <message>
        <source>%1; its smoke run passed (onnxruntime %2)</source>
        <translation>%1。スモーク実行に成功（onnxruntime %2）</translation>
    </message>
    <message numerus="yes">
        <source>Proof: %n model(s) of the release failed their proof or smoke run: see below.</source>
        <translation>
            <numerusform>証明: リリースのモデル %n 個が証明またはスモーク実行に失敗しました。下を参照してください。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: each of the %n model(s) is the original; some gave warnings or were not run: see below.</source>
        <translation>
            <numerusform>証明: %n 個のモデルはいずれも元のモデルと同一です。ただし警告が出たか実行されなかったものがあります。下を参照してください。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: each of the %n model(s) is the original and its smoke run passed; %1 shipped beside them.</source>
        <translation>
            <numerusform>証明: %n 個のモデルはいずれも元のモデルと同一で、スモーク実行に成功しました。一緒に%1を同梱しています。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n asset(s)</source>
        <translation>
            <numerusform>アセット %n 個</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>previous %1, %n change(s), needs a %2 bump (suggested %3).</source>
        <translation>
            <numerusform>前回 %1、変更 %n 件、%2 の更新が必要です（提案 %3）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Requested: %1. Each release ran the bundled model on the same inputs as the reference run (onnxruntime %2, installed here); outputs not bitwise equal must agree within atol %3, rtol %4.</source>
        <translation>指定: %1。各リリースで、基準の実行 (ここにインストールされている onnxruntime %2) と同じ入力でバンドルしたモデルを実行しました。ビット単位で同一でない出力は atol %3、rtol %4 以内で一致する必要があります。</translation>
    </message>
    <message>
        <source>bitwise equal</source>
        <translation>ビット単位で同一</translation>
    </message>
    <message>
        <source>largest difference %1</source>
        <translation>最大差 %1</translation>
    </message>
    <message>
        <source>beyond the tolerance</source>
        <translation>許容誤差を超えています</translation>
    </message>
    <message>
        <source>equal within the tolerance</source>
        <translation>許容誤差内で一致</translation>
    </message>
    <message>
        <source>NO</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <source>n/a (not floating point)</source>
        <translation>該当なし (浮動小数点ではない)</translation>
    </message>
    <message>
        <source>Proof: the bundled model file is the original, byte for byte (equal SHA-256); its smoke run passed (onnxruntime %1, %2).</source>
        <translation>証明: バンドルされたモデルファイルは元のファイルとバイト単位で同一です（SHA-256 が一致）。スモーク実行にも成功しました（onnxruntime %1、%2）。</translation>
    </message>
    <message numerus="yes">
        <source>Proof: the bundled model is the original bit for bit (same structure, all %n tensor(s) compared byte for byte); its smoke run passed (onnxruntime %1, %2).</source>
        <translation>
            <numerusform>証明: バンドルされたモデルは元のモデルとビット単位で同一です（構造が同じで、全 %n 個のテンソルをバイト単位で比較して一致）。スモーク実行にも成功しました（onnxruntime %1、%2）。</numerusform>
        </translation>
    </message>
    <message>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <source>NO (NaN or Inf)</source>
        <translation>いいえ（NaN または Inf）</translation>
    </message>
    <message>
        <source>Compared with the previous release: %1</source>
        <translation>前回のリリースとの比較: %1</translation>
    </message>
    <message>
        <source>Copy the equivalent onnxpack bundle … command line</source>
        <translation>同じ処理をする onnxpack bundle … コマンドラインをコピー</translation>
    </message>
    <message>
        <source>No bundle made for this row yet: fill in the Bundle tab and press Bundle.</source>
        <translation>この行のバンドルはまだありません。バンドル タブに入力して「バンドル」を押してください。</translation>
    </message>
    <message>
        <source>Proof: the bundled model gives bit-for-bit the same outputs as the original (onnxruntime %1, %2).</source>
        <translation>証明: バンドルしたモデルは元のモデルとビット単位で同じ出力を返します（onnxruntime %1、%2）。</translation>
    </message>
    <message>
        <source>Proof: the bundled model&apos;s outputs equal the original&apos;s within the set tolerance (onnxruntime %1, %2).</source>
        <translation>証明: バンドルしたモデルの出力は、設定した許容誤差の範囲で元のモデルと一致します（onnxruntime %1、%2）。</translation>
    </message>
    <message>
        <source>No equality proof: the smoke run was turned off.</source>
        <translation>一致の証明なし: スモーク実行がオフになっています。</translation>
    </message>
    <message>
        <source>The bundled model&apos;s outputs DIFFER from the original.</source>
        <translation>バンドルしたモデルの出力が元のモデルと異なります。</translation>
    </message>
    <message numerus="yes">
        <source>Bundle created with %n warning(s): %1 (%2)</source>
        <translation>
            <numerusform>バンドルを作成しました（警告 %n 件）: %1 (%2)</numerusform>
        </translation>
    </message>
    <message>
        <source>Warning %1: %2</source>
        <translation>警告 %1: %2</translation>
    </message>
    <message>
        <source>How to fix: %1</source>
        <translation>対処方法: %1</translation>
    </message>
    <message numerus="yes">
        <source>Proof: the bundled model file is the original, byte for byte (equal SHA-256); but its smoke run gave %n warning(s) (onnxruntime %1, %2): see below.</source>
        <translation>
            <numerusform>証明: バンドルされたモデルファイルは元のファイルとバイト単位で同一です（SHA-256 が一致）。ただしスモーク実行で警告が %n 件出ました（onnxruntime %1、%2）: 下を参照してください。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: the bundled model is the original bit for bit (same structure, all %n tensor(s) compared byte for byte); but its smoke run gave warnings (onnxruntime %1, %2): see below.</source>
        <translation>
            <numerusform>証明: バンドルされたモデルは元のモデルとビット単位で同一です（構造が同じで、全 %n 個のテンソルをバイト単位で比較して一致）。ただしスモーク実行で警告が出ました（onnxruntime %1、%2）: 下を参照してください。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Roles</name>
    <message>
        <source>model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>external data</source>
        <translation>外部データ</translation>
    </message>
    <message>
        <source>ORT-format model</source>
        <translation>ORT 形式モデル</translation>
    </message>
    <message>
        <source>ORT operator list</source>
        <translation>ORT 演算子リスト</translation>
    </message>
    <message>
        <source>manifest</source>
        <translation>マニフェスト</translation>
    </message>
    <message>
        <source>read-me</source>
        <translation>README</translation>
    </message>
    <message>
        <source>checksums (sha256sum -c)</source>
        <translation>チェックサム (sha256sum -c)</translation>
    </message>
    <message>
        <source>reference output</source>
        <translation>参照出力</translation>
    </message>
    <message>
        <source>smoke-run input</source>
        <translation>スモーク実行の入力</translation>
    </message>
    <message>
        <source>asset (a file the app reads)</source>
        <translation>アセット（アプリが読み込むファイル）</translation>
    </message>
    <message>
        <source>label map</source>
        <translation>ラベルマップ</translation>
    </message>
    <message>
        <source>tokenizer</source>
        <translation>トークナイザー</translation>
    </message>
    <message>
        <source>configuration</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>other file</source>
        <translation>その他のファイル</translation>
    </message>
</context>
<context>
    <name>RunPanel</name>
    <message>
        <source>Inspect</source>
        <translation>検査</translation>
    </message>
    <message>
        <source>Validate</source>
        <translation>妥当性チェック</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>統合</translation>
    </message>
    <message>
        <source>Smoke run</source>
        <translation>スモーク実行</translation>
    </message>
    <message>
        <source>Prove on releases</source>
        <translation>リリースで検証</translation>
    </message>
    <message>
        <source>ORT format</source>
        <translation>ORT 形式</translation>
    </message>
    <message>
        <source>ZIP</source>
        <translation>ZIP</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>スキップ</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未実行</translation>
    </message>
    <message>
        <source>partly done</source>
        <translation>一部完了</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>進行状況</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>中止(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the running bundle; nothing is left behind (Esc)</source>
        <translation>実行中のバンドルを止めます。途中のファイルは残りません（Esc）</translation>
    </message>
    <message>
        <source>Cancelling %1…</source>
        <translation>%1 を中止しています…</translation>
    </message>
    <message>
        <source>Finished: %1 in %2</source>
        <translation>完了: %1 (%2)</translation>
    </message>
    <message>
        <source>Failed: %1 after %2</source>
        <translation>失敗: %1 (%2 経過)</translation>
    </message>
    <message>
        <source>Cancelled: %1 — nothing was written</source>
        <translation>中止: %1 — 何も書き出されていません</translation>
    </message>
    <message numerus="yes">
        <source>each of the %n model(s)</source>
        <translation>
            <numerusform>%n 個のモデルすべて</numerusform>
        </translation>
    </message>
    <message>
        <source>done for model %1 of %2</source>
        <translation>%2 個中 %1 個目のモデルまで完了</translation>
    </message>
    <message>
        <source>at model %1 of %2</source>
        <translation>%2 個中 %1 個目のモデル</translation>
    </message>
    <message>
        <source>model %1 of %2</source>
        <translation>%2 個中 %1 個目のモデル</translation>
    </message>
    <message>
        <source>Bundling %1…</source>
        <translation>%1 をバンドルしています…</translation>
    </message>
    <message>
        <source>%1 progress</source>
        <translation>%1 の進行状況</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>残り約 %1</translation>
    </message>
    <message>
        <source>Queued: this row is bundled after the rows before it.</source>
        <translation>待機中: この行は前の行の後にバンドルされます。</translation>
    </message>
    <message>
        <source>No bundle has run for this row.</source>
        <translation>この行ではまだバンドルを実行していません。</translation>
    </message>
    <message>
        <source>Now: %1 — %2</source>
        <translation>現在: %1 — %2</translation>
    </message>
    <message>
        <source>Now: %1</source>
        <translation>現在: %1</translation>
    </message>
    <message>
        <source>Model %1 of %2: %3</source>
        <translation>%2 個中 %1 個目のモデル：%3</translation>
    </message>
    <message>
        <source>(still working, no news for %1)</source>
        <translation>（処理中です。%1 のあいだ報告がありません）</translation>
    </message>
</context>
<context>
    <name>SizeBar</name>
    <message>
        <source>Single-file size against the 2 GiB limit</source>
        <translation>2 GiB 上限に対する単一ファイルのサイズ</translation>
    </message>
    <message>
        <source>size unknown</source>
        <translation>サイズ不明</translation>
    </message>
    <message>
        <source>%1 of 2 GiB (%2 %) — fits in one .onnx file</source>
        <translation>2 GiB 中 %1（%2 %）— 1 つの .onnx ファイルに収まります</translation>
    </message>
    <message>
        <source>%1 — over the 2 GiB limit: .onnx + one aligned data file</source>
        <translation>%1 — 2 GiB の上限を超えるため、.onnx と整列済みデータ ファイル 1 つに分けます</translation>
    </message>
</context>
<context>
    <name>Stages</name>
    <message>
        <source>done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>inspecting</source>
        <translation>調査中</translation>
    </message>
    <message>
        <source>waiting for the onnx checker</source>
        <translation>onnx チェッカーを待っています</translation>
    </message>
    <message>
        <source>onnxruntime {version}: preparing</source>
        <translation>onnxruntime {version}: 準備中</translation>
    </message>
    <message>
        <source>running on onnxruntime {version}</source>
        <translation>onnxruntime {version} で実行中</translation>
    </message>
    <message>
        <source>fetching onnxruntime {version} and numpy {numpy} from {index}</source>
        <translation>{index} から onnxruntime {version} と numpy {numpy} を取得中</translation>
    </message>
    <message>
        <source>downloading {file}</source>
        <translation>{file} をダウンロード中</translation>
    </message>
    <message>
        <source>creating the environment of onnxruntime {version}</source>
        <translation>onnxruntime {version} の環境を作成中</translation>
    </message>
    <message>
        <source>installing {ort} and {numpy}</source>
        <translation>{ort} と {numpy} をインストール中</translation>
    </message>
    <message>
        <source>comparing the tensor hashes</source>
        <translation>テンソルのハッシュを比較中</translation>
    </message>
    <message>
        <source>measuring the end user&apos;s load time and memory</source>
        <translation>利用者の読み込み時間とメモリーを計測中</translation>
    </message>
    <message>
        <source>writing README.txt and manifest.json</source>
        <translation>README.txt と manifest.json を書き込み中</translation>
    </message>
    <message>
        <source>validating and copying the model</source>
        <translation>モデルを検証してコピー中</translation>
    </message>
    <message>
        <source>reading {file}</source>
        <translation>{file} を読み込み中</translation>
    </message>
    <message>
        <source>hashing {file}</source>
        <translation>{file} のハッシュを計算中</translation>
    </message>
    <message>
        <source>{name}</source>
        <translation>{name}</translation>
    </message>
    <message>
        <source>original {name}</source>
        <translation>元の {name}</translation>
    </message>
    <message>
        <source>other {name}</source>
        <translation>比較対象の {name}</translation>
    </message>
    <message>
        <source>bundled {name}</source>
        <translation>バンドルされた {name}</translation>
    </message>
    <message>
        <source>structure</source>
        <translation>構造を確認中</translation>
    </message>
    <message>
        <source>checker</source>
        <translation>onnx チェッカーを実行中</translation>
    </message>
    <message>
        <source>retargeting for ONNX Runtime {version}</source>
        <translation>ONNX Runtime {version} 向けに変換中</translation>
    </message>
    <message>
        <source>creating the ONNX Runtime session for {model}</source>
        <translation>{model} の ONNX Runtime セッションを作成中</translation>
    </message>
    <message>
        <source>session created ({seconds:.2f} s)</source>
        <translation>セッションを作成しました（{seconds:.2f} 秒）</translation>
    </message>
    <message>
        <source>running {model}</source>
        <translation>{model} を実行中</translation>
    </message>
    <message>
        <source>run {run}/{runs} of {model}</source>
        <translation>{model} の実行 {run}/{runs}</translation>
    </message>
    <message>
        <source>loading {model} the ways apps load it</source>
        <translation>{model} をアプリと同じ方法で読み込んでいます</translation>
    </message>
    <message>
        <source>outputs with NaN/Inf: trying other inputs ({profile})</source>
        <translation>出力に NaN/Inf: 別の入力を試しています（{profile}）</translation>
    </message>
    <message>
        <source>searching sizes for {dims}</source>
        <translation>{dims} の大きさを探索中</translation>
    </message>
    <message>
        <source>converting with onnxruntime</source>
        <translation>onnxruntime で変換中</translation>
    </message>
    <message>
        <source>smoke-running the .ort against the .onnx</source>
        <translation>.ort を .onnx と比べてスモーク実行中</translation>
    </message>
    <message>
        <source>moving the results into place</source>
        <translation>結果を所定の場所へ移動中</translation>
    </message>
    <message>
        <source>{file}</source>
        <translation>{file} をコピー中</translation>
    </message>
    <message>
        <source>model {index} of {count}: {entry}</source>
        <translation>モデル {index}/{count}: {entry}</translation>
    </message>
    <message>
        <source>adding {member}</source>
        <translation>{member} を追加しています</translation>
    </message>
    <message>
        <source>starting ONNX Runtime in a child process</source>
        <translation>子プロセスで ONNX Runtime を起動中</translation>
    </message>
    <message>
        <source>reference run (installed onnxruntime)</source>
        <translation>基準の実行 (インストール済みの onnxruntime)</translation>
    </message>
    <message>
        <source>copying the files as they are</source>
        <translation>ファイルをそのままコピーしています</translation>
    </message>
    <message>
        <source>first run done</source>
        <translation>1 回目の実行が完了</translation>
    </message>
</context>
</TS>
