<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>BundlePanel</name>
    <message>
        <source>Release</source>
        <extracomment>Offered in the target-ORT box, newest first (the field stays editable for any X.Y).</extracomment>
        <translation>リリース</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <source>&amp;Version:</source>
        <translation>バージョン(&amp;V):</translation>
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
        <source>Options</source>
        <translation>オプション</translation>
    </message>
    <message>
        <source>Signing and release information</source>
        <translation>署名とリリース情報</translation>
    </message>
    <message>
        <source>Signing &amp;key:</source>
        <translation>署名鍵(&amp;K):</translation>
    </message>
    <message>
        <source>&amp;License (SPDX):</source>
        <translation>ライセンス (SPDX)(&amp;L):</translation>
    </message>
    <message>
        <source>Aut&amp;hors:</source>
        <translation>作成者(&amp;H):</translation>
    </message>
    <message>
        <source>Ho&amp;mepage:</source>
        <translation>ホームページ(&amp;M):</translation>
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
        <source>Signing is not included in this build: use the pip-installed onnxpack[sign].</source>
        <translation>このビルドには署名機能が含まれていません。pip でインストールした onnxpack[sign] を使ってください。</translation>
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
        <source>Lower the IR version for the target runtime if needed</source>
        <translation>必要なら対象ランタイムに合わせて IR バージョンを下げる</translation>
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
        <source>Replace an existing bundle, or allow a version not above the previous one</source>
        <translation>既存のバンドルを置き換える、または前回以下のバージョンを許可する</translation>
    </message>
    <message>
        <source>Run the models and prove the bundled one gives identical outputs</source>
        <translation>モデルを実行し、バンドル後も出力が同一であることを証明する</translation>
    </message>
    <message>
        <source>Smoke run</source>
        <translation>スモーク実行</translation>
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
        <source>Size of dimension %1</source>
        <translation>次元 %1 のサイズ</translation>
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
    <name>Findings</name>
    <message>
        <source>about {size}</source>
        <translation>約 {size}</translation>
    </message>
    <message>
        <source>External data file &apos;{file}&apos; was not found (looked for {looked_for})</source>
        <translation>外部データファイル「{file}」が見つかりません ({looked_for} を探しました)</translation>
    </message>
    <message>
        <source>{unaligned} of {total} external tensors start at offsets not aligned to 4 KiB (e.g. &apos;{tensor}&apos; at {offset}); ONNX Runtime may then read them into memory instead of memory-mapping them</source>
        <translation>外部テンソル {total} 個のうち {unaligned} 個が 4 KiB 境界に揃っていないオフセットから始まります (例: 「{tensor}」は {offset})。ONNX Runtime はそれらをメモリマップせずにメモリへ読み込むことがあります</translation>
    </message>
    <message>
        <source>All {total} external tensors start at 4 KiB-aligned offsets ({aligned64} also at 64 KiB)</source>
        <translation>外部テンソル {total} 個すべてが 4 KiB 境界のオフセットから始まります (うち {aligned64} 個は 64 KiB 境界)</translation>
    </message>
    <message>
        <source>Merged into one file, {model} would be {size}, under the 2 GiB protobuf limit</source>
        <translation>1 つのファイルにまとめると {model} は {size} で、protobuf の 2 GiB 上限を下回ります</translation>
    </message>
    <message>
        <source>Merged into one file, {model} would be {size}, above protobuf&apos;s 2 GiB limit; it must keep external data</source>
        <translation>1 つのファイルにまとめると {model} は {size} で、protobuf の 2 GiB 上限を超えます。外部データのままにする必要があります</translation>
    </message>
    <message>
        <source>{model} uses nothing newer than IR {min_ir}: lowering ir_version from {ir} to {lowered} would let ONNX Runtime {version} (and newer) load it</source>
        <translation>{model} は IR {min_ir} より新しい機能を使っていません。ir_version を {ir} から {lowered} に下げると ONNX Runtime {version} 以降で読み込めます</translation>
    </message>
    <message>
        <source>{model} uses ONNX Runtime contrib operators (domain &apos;{domain}&apos;); they ship with standard ORT packages but are not covered by the opset table</source>
        <translation>{model} は ONNX Runtime の contrib 演算子 (ドメイン「{domain}」) を使っています。標準の ORT パッケージに含まれますが、opset の表では判定できません</translation>
    </message>
    <message>
        <source>{model} imports domain &apos;{domain}&apos;, defined by its own model-local functions</source>
        <translation>{model} はドメイン「{domain}」をインポートしています。モデル内の関数で定義されています</translation>
    </message>
    <message>
        <source>{model} uses operators of the non-standard domain &apos;{domain}&apos;; ONNX Runtime needs a custom-op library registered for them</source>
        <translation>{model} は非標準ドメイン「{domain}」の演算子を使っています。ONNX Runtime にはそのカスタム演算子ライブラリの登録が必要です</translation>
    </message>
    <message>
        <source>{model} uses operators of domain &apos;{domain}&apos; but does not import that operator set</source>
        <translation>{model} はドメイン「{domain}」の演算子を使っていますが、その演算子セットをインポートしていません</translation>
    </message>
    <message>
        <source>The onnx checker crashed on {model} ({detail}); the model is malformed in a way that breaks native code</source>
        <translation>onnx チェッカーが {model} でクラッシュしました ({detail})。ネイティブコードを壊す形でモデルが壊れています</translation>
    </message>
    <message>
        <source>The onnx checker did not finish on {model} ({detail})</source>
        <translation>onnx チェッカーが {model} で終了しませんでした ({detail})</translation>
    </message>
    <message>
        <source>The onnx checker could not run on {model}: {detail}</source>
        <translation>onnx チェッカーを {model} で実行できませんでした: {detail}</translation>
    </message>
    <message>
        <source>onnx checker rejects {model}: {detail}</source>
        <translation>onnx チェッカーが {model} を拒否しました: {detail}</translation>
    </message>
    <message>
        <source>Shape inference of {model} stopped where it needed the values of a large or external tensor: {detail}</source>
        <translation>{model} の形状推論は、大きなテンソルまたは外部テンソルの値が必要な箇所で止まりました: {detail}</translation>
    </message>
    <message>
        <source>Shape inference fails on {model}: {detail}</source>
        <translation>{model} の形状推論に失敗しました: {detail}</translation>
    </message>
    <message>
        <source>Tensor {tensor} holds {size} (≥ 2 GiB): it can only ever live in external data</source>
        <translation>テンソル {tensor} は {size} (2 GiB 以上) あり、外部データにしか置けません</translation>
    </message>
    <message>
        <source>{path} is listed in the manifest but not in the archive</source>
        <translation>{path} はマニフェストに記載されていますが、アーカイブにありません</translation>
    </message>
    <message>
        <source>{path} is in the archive but not listed in the manifest</source>
        <translation>{path} はアーカイブにありますが、マニフェストに記載されていません</translation>
    </message>
    <message>
        <source>{path} has {size} bytes; the manifest says {listed}</source>
        <translation>{path} は {size} バイトですが、マニフェストでは {listed} バイトです</translation>
    </message>
    <message>
        <source>{path}: SHA-256 is {actual}, the manifest says {listed}</source>
        <translation>{path}: SHA-256 は {actual} ですが、マニフェストでは {listed} です</translation>
    </message>
    <message>
        <source>The bundle has no model.sig, so it is not signed (or its signature was removed)</source>
        <translation>バンドルに model.sig がないため、署名されていません (または署名が削除されました)</translation>
    </message>
    <message>
        <source>The manifest says the bundle is signed, but model.sig is missing: the signature was removed</source>
        <translation>マニフェストには署名済みとありますが、model.sig がありません。署名が削除されています</translation>
    </message>
    <message>
        <source>{path} is not covered by the signature (added after signing)</source>
        <translation>{path} は署名の対象外です (署名後に追加されました)</translation>
    </message>
    <message>
        <source>{path} is not the file that was signed (SHA-256 {actual}, signed {signed})</source>
        <translation>{path} は署名されたファイルではありません (SHA-256 {actual}、署名時 {signed})</translation>
    </message>
    <message>
        <source>{path} was signed but is missing from the archive</source>
        <translation>{path} は署名されていますが、アーカイブにありません</translation>
    </message>
    <message>
        <source>Oldest ONNX Runtime that loads {model}: {version} (IR {ir}, ai.onnx opset {opset}{ml}; {source})</source>
        <translation>{model} を読み込める最も古い ONNX Runtime: {version} (IR {ir}、ai.onnx opset {opset}{ml}、{source})</translation>
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
        <source>tick &quot;Replace an existing bundle, or allow a version not above the previous one&quot; in the Bundle tab</source>
        <translation>バンドル タブの「既存のバンドルを置き換える、または前回以下のバージョンを許可する」にチェックを入れてください</translation>
    </message>
    <message>
        <source>In the Bundle tab, give an .npy file for this input under &quot;Input data&quot;, or leave it empty to use generated data.</source>
        <translation>バンドル タブの「入力データ」でこの入力の .npy ファイルを指定するか、空欄にして生成データを使ってください。</translation>
    </message>
    <message>
        <source>Put the .data file next to the .onnx file (same folder, same name as written in the model), or choose where it is with File → Locate data file…</source>
        <translation>.data ファイルを .onnx ファイルの隣 (同じフォルダー、モデルに書かれたとおりの名前) に置くか、「ファイル → データファイルの場所を指定…」で場所を選んでください。</translation>
    </message>
    <message>
        <source>Harmless: the bundle&apos;s own data file (used above 2 GiB) is written 64 KiB-aligned.</source>
        <translation>問題ありません。バンドル自体のデータファイル (2 GiB を超える場合に使用) は 64 KiB 境界に揃えて書き出されます。</translation>
    </message>
    <message>
        <source>Tick &quot;Lower the IR version for the target runtime if needed&quot; in the Bundle tab.</source>
        <translation>バンドル タブの「必要なら対象ランタイムに合わせて IR バージョンを下げる」にチェックを入れてください。</translation>
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
        <source>Choose another version or output folder, or %1.</source>
        <translation>別のバージョンか出力フォルダーを選ぶか、%1。</translation>
    </message>
    <message>
        <source>Use the suggested version, or %1.</source>
        <translation>提案されたバージョンを使うか、%1。</translation>
    </message>
    <message>
        <source>Give one class label per output class, in order, under Class labels in the Bundle tab (or %1 to keep them).</source>
        <translation>バンドル タブの「クラスラベル」に出力クラスごとに 1 つずつ順番に入力してください (そのまま使うには %1)。</translation>
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
</context>
<context>
    <name>LogPane</name>
    <message>
        <source>&amp;Log:</source>
        <extracomment>Pipeline stages in order (core.bundle reports these names). Stages whose done/total count steps rather than bytes.</extracomment>
        <translation>ログ(&amp;L):</translation>
    </message>
    <message>
        <source>&amp;Copy log</source>
        <translation>ログをコピー(&amp;C)</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>クリア</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>ログ</translation>
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
        <source>Open model &amp;folder…</source>
        <translation>モデル フォルダーを開く…(&amp;F)</translation>
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
        <source>%1 holds %2 models: each is queued on its own.</source>
        <translation>%1 には %2 個のモデルがあります。それぞれを個別にキューに追加しました。</translation>
    </message>
    <message>
        <source>Opened %1 models from %2</source>
        <translation>%2 から %1 個のモデルを開きました</translation>
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
        <source>(%1 of %2)</source>
        <translation>(%2 件中 %1 件目)</translation>
    </message>
    <message>
        <source>Bundling %1 as %2 %3</source>
        <translation>%1 を %2 %3 としてバンドルしています</translation>
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
        <source>Inspected %1: %2 finding(s).</source>
        <translation>%1 を検査しました: 検出事項 %2 件。</translation>
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
        <source>%1: &apos;%2&apos; is not a semantic version.</source>
        <translation>%1: 「%2」はセマンティック バージョンではありません。</translation>
    </message>
    <message>
        <source>Use MAJOR.MINOR.PATCH, for example 1.0.0 or 2.1.3.</source>
        <translation>MAJOR.MINOR.PATCH の形式で指定してください（例: 1.0.0、2.1.3）。</translation>
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
        <source>Nothing was started. Choose a new version, another output folder, or tick &quot;Replace an existing bundle&quot; in the Bundle tab.</source>
        <translation>何も開始していません。新しいバージョンか別の出力フォルダーを選ぶか、バンドル タブで「既存のバンドルを置き換える」にチェックを入れてください。</translation>
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
        <source>%1 item(s) · %2 running · %3 queued · %4 bundled</source>
        <translation>%1 件 · 実行中 %2 · 待機中 %3 · バンドル済み %4</translation>
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
        <source>Reading and checking the model…</source>
        <translation>モデルを読み込んでチェックしています…</translation>
    </message>
    <message>
        <source>Not ready to bundle: %1 error(s), %2 warning(s) — see Findings.</source>
        <translation>バンドルできません: エラー %1 件、警告 %2 件 —「検出事項」を参照してください。</translation>
    </message>
    <message>
        <source>Ready to bundle, with %1 warning(s) — see Findings.</source>
        <translation>バンドルできます（警告 %1 件 —「検出事項」を参照）。</translation>
    </message>
    <message>
        <source>Ready to bundle: no problems found.</source>
        <translation>バンドルできます: 問題は見つかりませんでした。</translation>
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
        <source>%1 tensors, %2 (%3 in external data)</source>
        <translation>%1 個のテンソル、%2 (外部データ %3)</translation>
    </message>
    <message>
        <source>Initializers</source>
        <translation>初期化子</translation>
    </message>
    <message>
        <source>%1 nodes of %2 kinds: %3</source>
        <translation>%1 ノード、%2 種類: %3</translation>
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
        <source>Verified: every file matches the manifest.</source>
        <translation>検証済み: すべてのファイルがマニフェストと一致しています。</translation>
    </message>
    <message>
        <source>Verification failed: %1 problem(s) — see Findings.</source>
        <translation>検証に失敗しました: 問題 %1 件 —「検出事項」を参照してください。</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>モデル名</translation>
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
</context>
<context>
    <name>QueueTable</name>
    <message>
        <source>Item</source>
        <extracomment>state → icon kind (the text is always shown too)</extracomment>
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
        <source>&amp;Open output folder</source>
        <translation>出力フォルダーを開く(&amp;O)</translation>
    </message>
    <message>
        <source>Copy CLI co&amp;mmand</source>
        <translation>CLI コマンドをコピー(&amp;M)</translation>
    </message>
    <message>
        <source>Copy the equivalent `onnxpack bundle …` command line</source>
        <translation>同じ処理をする `onnxpack bundle …` コマンドラインをコピーします</translation>
    </message>
    <message>
        <source>No bundle made yet. Drop a model, fill in the form, press Bundle.</source>
        <translation>まだバンドルはありません。モデルをドロップし、フォームに入力して「バンドル」を押してください。</translation>
    </message>
    <message>
        <source>Bundle created: %1 (%2)</source>
        <translation>バンドルを作成しました: %1（%2）</translation>
    </message>
    <message>
        <source>n/a (not floating point)</source>
        <translation>該当なし (浮動小数点ではない)</translation>
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
        <source>previous %1, %2 change(s), needs a %3 bump (suggested %4).</source>
        <translation>前回 %1、変更 %2 件、%3 の更新が必要です（提案 %4）。</translation>
    </message>
    <message>
        <source>Proof: the bundled model is the original bit for bit (same structure, all %3 tensors with equal SHA-256); its smoke run passed (onnxruntime %1, %2).</source>
        <translation>証明: バンドルされたモデルは元のモデルとビット単位で同一です（構造が同じで、全 %3 個のテンソルの SHA-256 が一致）。スモーク実行にも成功しました（onnxruntime %1、%2）。</translation>
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
        <source>reference output</source>
        <translation>参照出力</translation>
    </message>
    <message>
        <source>smoke-run input</source>
        <translation>スモーク実行の入力</translation>
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
    <message>
        <source>Bundling %1…</source>
        <translation>%1 をバンドルしています…</translation>
    </message>
    <message>
        <source>Nothing is running.</source>
        <translation>実行中の処理はありません。</translation>
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
</TS>
